// The tenant's steps on a running campaign: cancel (the ceremony hears it through an outbox
// signal row written in the same transaction), re-seal a FAILED seal now, remind a recipient.
import { and, eq, sql } from 'drizzle-orm';
import { enqueueSignal } from '../../db/outbox';
import { signatureInstances, signatureRecipients } from '../../db/schema/signature-instances';
import { AppError, notFound } from '../../domain/errors';
import { SignatureCeremonyProcess, SIGNATURES_CAPABILITY } from '../../domain/signatures/ceremony-process';
import { isArmed, isTerminal } from '../../domain/signatures/instance-states';
import type { Actor } from '../definitions/capability';
import { requireInstance, type InstanceRow } from './campaign-reads';
import { recordEvent } from './instance-events';
import { recipientBox } from './recipient-box';
import { mailRecipient } from './recipient-delivery';
import type { CampaignDeps } from './start-campaign';

export const ceremonyTarget = (row: { tenantId: string; id: string }) => ({ capability: SIGNATURES_CAPABILITY, tenantId: row.tenantId, businessKey: row.id });

const terminal = (row: InstanceRow) => new AppError('instance-terminal', `The campaign is ${row.status}`, { instanceStatus: row.status });

/** Past its expiresAt a live campaign is treated as EXPIRED at once (the ceremony's timer writes it). */
export const expiredByTime = (row: InstanceRow, now: Date) => row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime();

export async function cancelCampaign(deps: CampaignDeps, actor: Actor, id: string): Promise<InstanceRow> {
  return deps.db.transaction(async (tx) => {
    const row = await requireInstance(tx, actor, id, true);
    if (isTerminal(row.status)) throw terminal(row);
    const [updated] = await tx
      .update(signatureInstances)
      .set({ status: 'CANCELLED', cancelledAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(signatureInstances.id, row.id))
      .returning();
    await recordEvent(tx, recipientBox(deps.settings), { tenantId: row.tenantId, instanceId: row.id, action: 'cancelled' });
    await enqueueSignal(tx, ceremonyTarget(row), SignatureCeremonyProcess.signals.cancel, {});
    return updated!;
  });
}

export async function requestReseal(deps: CampaignDeps, actor: Actor, id: string): Promise<InstanceRow> {
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
    const [recipient] = await tx
      .select()
      .from(signatureRecipients)
      .where(and(eq(signatureRecipients.instanceId, row.id), eq(signatureRecipients.signerId, signerId)));
    if (!recipient) throw notFound('Signature recipient', 'signature-instance-not-found');
    if (!isArmed(recipient.status)) {
      throw new AppError('signature-state-conflict', `Only a recipient who is R_PENDING or R_OPENED is reminded (this one is ${recipient.status})`, { recipientStatus: recipient.status });
    }
    await tx.update(signatureRecipients).set({ lastRemindedAt: sql`now()` }).where(eq(signatureRecipients.id, recipient.id));
    await recordEvent(tx, recipientBox(deps.settings), { tenantId: row.tenantId, instanceId: row.id, action: 'reminded', signerId });
    return { row, recipient };
  });
  return { signerId, deliveryStatus: await mailRecipient(deps, row, recipient, true) };
}
