// The processes of access that expires: one durable timer per grant end, and the sweep of pending
// requests past their lifetime (a platform schedule, like the form expiry sweep).
import { ALL_TENANTS } from '../documents/retention-purge-process';
import { defineProcess, signalContract } from '../process-contract';

export const ACCESS_CAPABILITY = 'ACCESS';

export interface GrantExpiryInput {
  tenantId: string;
  userId: string;
  capabilityCode: string;
  /** The grant's expiry_id: the timer revokes only while the grant still carries it. */
  expiryId: string;
  /** ISO-8601 UTC. */
  expiresAt: string;
}

/** The grant's end was changed or removed, or the grant revoked: this timer has nothing left to do. */
export interface GrantExpirySuperseded {
  expiryId: string;
}

/** One timer per grant end (business key `grant-expiry-<expiryId>`); a new end is a new process. */
export const GrantExpiryProcess = defineProcess<GrantExpiryInput>()({
  capability: ACCESS_CAPABILITY,
  workflowType: 'grantExpiry',
  tenantOf: (i) => i.tenantId,
  businessKey: (i) => grantExpiryKey(i.expiryId),
  signals: { superseded: signalContract<GrantExpirySuperseded>('GrantExpirySuperseded') },
});

export const grantExpiryKey = (expiryId: string) => `grant-expiry-${expiryId}`;

export interface AccessRequestExpirySweepInput {
  ttlDays: number;
  batchSize: number;
  /** Safety bound on one run; the next scheduled run continues. */
  maxBatches?: number;
}

export interface AccessRequestExpirySweepReport {
  expired: number;
  batches: number;
  byTenant: Record<string, number>;
}

export const AccessRequestExpirySweepProcess = defineProcess<AccessRequestExpirySweepInput>()({
  capability: ACCESS_CAPABILITY,
  workflowType: 'accessRequestExpirySweep',
  tenantOf: () => ALL_TENANTS,
  businessKey: () => 'request-expiry-sweep',
  signals: {},
});
