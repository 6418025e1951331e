// The tenant's steps on a running campaign: cancel (the ceremony hears it through an outbox
// signal row written in the same transaction), re-seal a FAILED seal now, remind a recipient.
import { enqueueSignal } from '../../db/outbox';
import { cancelSignatureInstance, type SignatureInstanceRow } from '../../db/queries/signature-instances';
import { findSignatureRecipient, markSignatureRecipientReminded } from '../../db/queries/signature-recipients';
import { AppError, notFound } from '../../domain/errors';
import { expiredByTime } from '../../domain/signatures/campaign-expiry';
import { SignatureCeremonyProcess } from '../../domain/signatures/ceremony-process';
import { ceremonyTarget } from '../../domain/signatures/ceremony-target';
import { isArmed, isTerminal } from '../../domain/signatures/instance-states';
import type { Actor } from '../definitions/capability';
import type { CampaignDeps } from './campaign-deps';
import { requireInstance } from './campaign-reads';
import { recordEvent } from './instance-events';
import { recipientBox } from './recipient-box';
import { mailRecipient } from './recipient-delivery';

const terminal = (row: SignatureInstanceRow) => new AppError('instance-terminal', `The campaign is ${row.status}`, { instanceStatus: row.status });

export async function cancelCampaign(deps: CampaignDeps, actor: Actor, id: string): Promise<SignatureInstanceRow> {
  return deps.db.transaction(async (tx) => {
    const row = await requireInstance(tx, actor, id, true);
    if (isTerminal(row.status)) throw terminal(row);
    const updated = await cancelSignatureInstance(tx, { id: row.id });
    await recordEvent(tx, recipientBox(deps.settings), { tenantId: row.tenantId, instanceId: row.id, action: 'cancelled' });
    await enqueueSignal(tx, ceremonyTarget(row), SignatureCeremonyProcess.signals.cancel, {});
    return updated;
  });
}

export async function requestReseal(deps: CampaignDeps, actor: Actor, id: string): Promise<SignatureInstanceRow> {
  return deps.db.transaction(async (tx) => {
    const row = await requireInstance(tx, actor, id, true);
    if (row.status !== 'COMPLETED' || row.sealStatus !== 'FAILED') {
      throw new AppError('signature-state-conflict', `Only a COMPLETED campaign whose seal FAILED is re-sealed (status ${row.status}, seal ${row.sealStatus ?? 'none'})`, {
        instanceStatus: row.status,
        sealStatus: row.sealStatus,
      });
    }
    await enqueueSignal(tx, ceremonyTarget(row), SignatureCeremonyProcess.signals.resealNow, {});
    return row;
  });
}

export async function remindRecipient(deps: CampaignDeps, actor: Actor, id: string, signerId: string) {
  const now = deps.clock?.() ?? new Date();
  const { row, recipient } = await deps.db.transaction(async (tx) => {
    const row = await requireInstance(tx, actor, id, true);
    if (isTerminal(row.status)) throw terminal(row);
    if (expiredByTime(row, now)) throw new AppError('instance-terminal', 'The campaign is EXPIRED', { instanceStatus: 'EXPIRED' });
    const recipient = await findSignatureRecipient(tx, { instanceId: row.id, signerId });
    if (!recipient) throw notFound('Signature recipient', 'signature-instance-not-found');
    if (!isArmed(recipient.status)) {
      throw new AppError('signature-state-conflict', `Only a recipient who is R_PENDING or R_OPENED is reminded (this one is ${recipient.status})`, { recipientStatus: recipient.status });
    }
    await markSignatureRecipientReminded(tx, { id: recipient.id });
    await recordEvent(tx, recipientBox(deps.settings), { tenantId: row.tenantId, instanceId: row.id, action: 'reminded', signerId });
    return { row, recipient };
  });
  return { signerId, deliveryStatus: await mailRecipient(deps, row, recipient, true) };
}
