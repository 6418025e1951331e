import { condition, defineSignal, proxyActivities, setHandler, setWorkflowOptions } from '@temporalio/workflow';
import type { AccessExpiryActivities } from '../activities/access-expiry';
import type { createOutboxActivities } from '../activities/outbox';
import { GrantExpiryProcess, type GrantExpiryInput, type GrantExpirySuperseded } from '../domain/access/expiry-processes';
import { versioningBehaviour } from './versioning-behaviour';

/** The grant's end changed or the grant was revoked: this timer ends without revoking. */
export const grantExpirySupersededSignal = defineSignal<[GrantExpirySuperseded]>(GrantExpiryProcess.signals.superseded.name);

export type GrantExpiryOutcome = 'revoked' | 'superseded';

type OutboxActivities = ReturnType<typeof createOutboxActivities>;

const acts = proxyActivities<AccessExpiryActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});
const { closeOutboxRow } = proxyActivities<OutboxActivities>({ startToCloseTimeout: '1 minute' });

/**
 * The durable timer of one grant end (docs/access.md "Expiry"): sleeps until `expiresAt`, then
 * revokes through the manual revoke's operation, which revokes only while the grant still carries
 * this timer's expiryId and its end has passed (by the database's clock: a timer that fires early
 * sleeps the rest). A renewal, a removed end or a manual revoke supersedes it.
 */
export async function grantExpiry(input: GrantExpiryInput): Promise<GrantExpiryOutcome> {
  let superseded = false;
  setHandler(grantExpirySupersededSignal, (s) => {
    if (s.expiryId === input.expiryId) superseded = true;
  });
  let wait = Date.parse(input.expiresAt) - Date.now();
  let outcome: GrantExpiryOutcome = 'superseded';
  for (;;) {
    if (wait > 0 && (await condition(() => superseded, Math.ceil(wait)))) break;
    if (superseded) break;
    const result = await acts.expireGrant({
      tenantId: input.tenantId,
      userId: input.userId,
      capabilityCode: input.capabilityCode,
      expiryId: input.expiryId,
    });
    if (result.outcome !== 'not-yet') {
      outcome = result.outcome;
      break;
    }
    wait = Math.max(result.remainingMs, 100);
  }
  await closeOutboxRow(GrantExpiryProcess.capability, input.tenantId, GrantExpiryProcess.businessKey(input));
  return outcome;
}
// AUTO_UPGRADE: a timer until the grant's end, months away maybe; it must not keep an old build alive
// for that. A timer and one activity: the replay corpus keeps new code able to take it over (docs/releases.md).
setWorkflowOptions(versioningBehaviour('AUTO_UPGRADE'), grantExpiry);
