// The form expiry sweep, run by a Temporal Schedule (not the outbox): one business key across
// tenants, TenantId `*`, like the documents retention purge.
import { ALL_TENANTS } from '../documents/retention-purge-process';
import { defineProcess } from '../process-contract';

export interface FormExpirySweepInput {
  batchSize: number;
  /** Safety bound on one run; the next scheduled run continues. */
  maxBatches?: number;
}

export interface FormExpirySweepReport {
  expired: number;
  batches: number;
  byTenant: Record<string, number>;
}

export const FormExpirySweepProcess = defineProcess<FormExpirySweepInput>()({
  capability: 'FORMS',
  workflowType: 'formExpirySweep',
  tenantOf: () => ALL_TENANTS,
  businessKey: () => 'expiry-sweep',
  signals: {},
});
