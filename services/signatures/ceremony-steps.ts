// What the ceremony's activities do to the database: arm the due order group and mail its links,
// remind, expire, and close (SignatureClosure to the waiting workflow with the outbox start row
// STARTED → CLOSED, in one transaction). Each step is idempotent: a retried activity repeats it
// harmlessly.
import { enqueueSignal } from '../../db/outbox';
import { closeCeremonyStartRow } from '../../db/queries/signature-ceremony-outbox';
import { expireSignatureInstance, findSignatureInstance, type SignatureInstanceRow } from '../../db/queries/signature-instances';
import { armSignatureRecipients, listSignatureRecipients, markSignatureRecipientReminded } from '../../db/queries/signature-recipients';
import { SignatureClosureSignal } from '../../domain/signatures/ceremony-process';
import { ceremonyTarget } from '../../domain/signatures/ceremony-target';
import { isArmed, isLive, type SignatureInstanceState } from '../../domain/signatures/instance-states';
import { groupToArm } from '../../domain/signatures/routing';
import type { CampaignDeps } from './campaign-deps';
import { recordEvent } from './instance-events';
import { pinnedSchema } from './pinned-schema';
import { recipientBox } from './recipient-box';
import { campaignTitle, mailRecipient } from './recipient-delivery';
import { sendSignedCopies } from './signed-copies';

export interface CeremonyState {
  status: SignatureInstanceState;
  /** 0: no reminders. */
  reminderIntervalMs: number;
  resealBackoffMs: number;
}

async function requireRow(deps: CampaignDeps, tenantId: string, instanceId: string): Promise<SignatureInstanceRow> {
  const row = await findSignatureInstance(deps.db, { tenantId, id: instanceId });
  if (!row) throw new Error(`signature instance ${instanceId} does not exist`);
  return row;
}

const stateOf = (deps: CampaignDeps, row: SignatureInstanceRow): CeremonyState => ({
  status: row.status,
  reminderIntervalMs: Math.round(deps.settings['signatures.reminder-interval-hours'] * 3_600_000),
  resealBackoffMs: deps.settings['signatures.reseal-backoff-minutes'] * 60_000,
});

/** Arms the lowest unsigned order group (sequential routing) and mails every armed recipient not mailed yet. */
export async function advanceCeremony(deps: CampaignDeps, tenantId: string, instanceId: string): Promise<CeremonyState> {
  const row = await requireRow(deps, tenantId, instanceId);
  if (!isLive(row.status)) return stateOf(deps, row);
  const schema = await pinnedSchema(deps, row.versionId);
  const due = groupToArm(schema.routing, await listSignatureRecipients(deps.db, { instanceId: row.id }));
  if (due !== null) await armSignatureRecipients(deps.db, { instanceId: row.id, order: due });
  const unmailed = (await listSignatureRecipients(deps.db, { instanceId: row.id })).filter((r) => isArmed(r.status) && r.deliveryStatus === null);
  if (unmailed.length) {
    const title = await campaignTitle(deps, row);
    for (const r of unmailed) await mailRecipient(deps, row, r, false, title);
  }
  return stateOf(deps, await requireRow(deps, tenantId, instanceId));
}

/** Mails a reminder to every armed recipient who has not signed; audited `reminded`. */
export async function remindArmed(deps: CampaignDeps, tenantId: string, instanceId: string): Promise<number> {
  const row = await requireRow(deps, tenantId, instanceId);
  if (!isLive(row.status)) return 0;
  const armed = (await listSignatureRecipients(deps.db, { instanceId: row.id })).filter((r) => isArmed(r.status));
  const title = await campaignTitle(deps, row);
  const box = recipientBox(deps.settings);
  for (const r of armed) {
    await deps.db.transaction(async (tx) => {
      await markSignatureRecipientReminded(tx, { id: r.id });
      await recordEvent(tx, box, { tenantId, instanceId, action: 'reminded', signerId: r.signerId });
    });
    await mailRecipient(deps, row, r, true, title);
  }
  return armed.length;
}

/** The expiry timer fired: a live campaign becomes EXPIRED. */
export async function expireCeremony(deps: CampaignDeps, tenantId: string, instanceId: string): Promise<CeremonyState> {
  await deps.db.transaction(async (tx) => {
    const expired = await expireSignatureInstance(tx, { tenantId, id: instanceId });
    if (expired) await recordEvent(tx, recipientBox(deps.settings), { tenantId, instanceId, action: 'expired' });
  });
  return stateOf(deps, await requireRow(deps, tenantId, instanceId));
}

/**
 * The ceremony ended: a sealed campaign's signed copies are mailed (signed-copies.ts), then its
 * outbox start row STARTED → CLOSED and, when a workflow started the campaign, its
 * SignatureClosure signal row, in one transaction; a repeat finds the row CLOSED.
 */
export async function closeCeremony(deps: CampaignDeps, tenantId: string, instanceId: string): Promise<boolean> {
  // A sealed campaign's copies first (each mailed once): a retry of this step mails only what is left.
  await sendSignedCopies(deps, tenantId, instanceId);
  const row = await requireRow(deps, tenantId, instanceId);
  return deps.db.transaction(async (tx) => {
    if (!(await closeCeremonyStartRow(tx, { tenantId, instanceId }))) return false;
    if (row.waitingWorkflowId) {
      await enqueueSignal(tx, { ...ceremonyTarget(row), workflowId: row.waitingWorkflowId }, SignatureClosureSignal, {
        instanceId,
        status: row.status,
        sealStatus: row.sealStatus,
        sealedDocumentId: row.sealedDocumentId,
        at: new Date().toISOString(),
      });
    }
    return true;
  });
}

