// The platform-wide retention purge, run by a Temporal Schedule (not the outbox): one business key
// across tenants, TenantId `*` so operators find it next to every tenant's processes.
import { defineProcess } from '../process-contract';

export interface RetentionPurgeInput {
  /** Only report what would be marked (setting docstore.retention-purge.dry-run, default true). */
  dryRun: boolean;
  batchSize: number;
  /** Safety bound on one run; the next scheduled run continues. */
  maxBatches?: number;
  /** How many example ids a dry run lists. */
  sampleSize?: number;
}

export const ALL_TENANTS = '*';

export const RetentionPurgeProcess = defineProcess<RetentionPurgeInput>()({
  capability: 'DOCUMENTS',
  workflowType: 'retentionPurge',
  tenantOf: () => ALL_TENANTS,
  businessKey: () => 'retention-purge',
  signals: {},
});
