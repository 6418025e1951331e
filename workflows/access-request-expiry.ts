import { proxyActivities, setWorkflowOptions } from '@temporalio/workflow';
import type { AccessExpiryActivities } from '../activities/access-expiry';
import type { AccessRequestExpirySweepInput, AccessRequestExpirySweepReport } from '../domain/access/expiry-processes';
import { versioningBehaviour } from './versioning-behaviour';

const acts = proxyActivities<AccessExpiryActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 10 },
});

/**
 * Moves PENDING access requests older than `ttlDays` to EXPIRED, batch after batch until one comes
 * back short (or maxBatches). Run by the Temporal Schedule `access-request-expiry-sweep`; requests
 * past their lifetime are treated as EXPIRED by every request operation even before it runs.
 */
export async function accessRequestExpirySweep(input: AccessRequestExpirySweepInput): Promise<AccessRequestExpirySweepReport> {
  const byTenant: Record<string, number> = {};
  let expired = 0;
  let batches = 0;
  const maxBatches = input.maxBatches ?? 1000;
  for (;;) {
    const batch = await acts.expireAccessRequestsBatch({ ttlDays: input.ttlDays, batchSize: input.batchSize });
    batches++;
    expired += batch.expired;
    for (const [t, n] of Object.entries(batch.byTenant)) byTenant[t] = (byTenant[t] ?? 0) + n;
    if (batch.expired < input.batchSize || batches >= maxBatches) break;
  }
  return { expired, batches, byTenant };
}
// PINNED: a bounded batch job; each scheduled run starts on the current build (docs/releases.md).
setWorkflowOptions(versioningBehaviour('PINNED'), accessRequestExpirySweep);
