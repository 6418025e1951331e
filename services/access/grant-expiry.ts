// The timers of grants that end (docs/access.md "Expiry"): one grantExpiry process per grant end,
// started in the transaction that sets the end, superseded by a signal in the transaction that
// changes or removes it (the timer also checks the grant's expiryId itself, so a late signal
// changes nothing).
import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../../db/client';
import { enqueueSignal, enqueueStart } from '../../db/outbox';
import type { GrantExpiryColumns } from '../../db/queries/entitlements';
import { GrantExpiryProcess, grantExpiryKey } from '../../domain/access/expiry-processes';

/**
 * The end a grant write leaves on the grant: none, the same one (the same end keeps its timer), or
 * a new one with a new timer id.
 */
export function grantExpiryOf(previous: { expiresAt: Date | null; expiryId: string | null } | null, expiresAt: Date | null): GrantExpiryColumns {
  if (expiresAt === null) return { expiresAt: null, expiryId: null };
  if (previous?.expiryId && previous.expiresAt?.getTime() === expiresAt.getTime()) return { expiresAt, expiryId: previous.expiryId };
  return { expiresAt, expiryId: randomUUID() };
}

/** Tells a grant's timer that its end no longer applies. */
export async function endGrantTimer(tx: DbOrTx, tenantId: string, expiryId: string) {
  await enqueueSignal(
    tx,
    { capability: GrantExpiryProcess.capability, tenantId, businessKey: grantExpiryKey(expiryId) },
    GrantExpiryProcess.signals.superseded,
    { expiryId },
  );
}

/** After a grant write: the old timer superseded, a new one started, or nothing when the end did not change. */
export async function scheduleGrantExpiry(
  tx: DbOrTx,
  grant: { tenantId: string; userId: string; code: string },
  previousExpiryId: string | null,
  next: GrantExpiryColumns,
) {
  if (previousExpiryId === next.expiryId) return;
  if (previousExpiryId) await endGrantTimer(tx, grant.tenantId, previousExpiryId);
  if (next.expiryId && next.expiresAt) {
    await enqueueStart(tx, GrantExpiryProcess, {
      tenantId: grant.tenantId,
      userId: grant.userId,
      capabilityCode: grant.code,
      expiryId: next.expiryId,
      expiresAt: next.expiresAt.toISOString(),
    });
  }
}
