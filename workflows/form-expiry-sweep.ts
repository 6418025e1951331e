import { proxyActivities, setWorkflowOptions } from '@temporalio/workflow';
import type { OutboundFormActivities } from '../activities/outbound-forms';
import type { FormExpirySweepInput, FormExpirySweepReport } from '../domain/forms/outbound-expiry-process';
import { versioningBehaviour } from './versioning-behaviour';

const acts = proxyActivities<OutboundFormActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 10 },
});

/**
 * Moves open form instances whose expiresAt passed to EXPIRED, batch after batch until one comes
 * back short (or maxBatches). Run by the Temporal Schedule `forms-expiry-sweep`.
 */
export async function formExpirySweep(input: FormExpirySweepInput): Promise<FormExpirySweepReport> {
  const byTenant: Record<string, number> = {};
  let expired = 0;
  let batches = 0;
  const maxBatches = input.maxBatches ?? 1000;
  for (;;) {
    const batch = await acts.expireFormInstancesBatch(input.batchSize);
    batches++;
    expired += batch.expired;
    for (const [t, n] of Object.entries(batch.byTenant)) byTenant[t] = (byTenant[t] ?? 0) + n;
    if (batch.expired < input.batchSize || batches >= maxBatches) break;
  }
  return { expired, batches, byTenant };
}
// PINNED: a bounded batch job; each scheduled run starts on the current build (docs/releases.md).
setWorkflowOptions(versioningBehaviour('PINNED'), formExpirySweep);
