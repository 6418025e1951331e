import { expireRequestsBatch } from '../services/access/access-requests';
import { expireGrant, type RevokeOutcome } from '../services/access/grants';
import type { CoreActivityDeps } from './deps';
import { toActivityFailure } from './failures';

export function createAccessExpiryActivities({ db }: CoreActivityDeps) {
  return {
    /**
     * A grant's timer fired: revoke it through the manual revoke's operation if it still carries
     * this timer's expiryId and its end has passed (`not-yet` with the time left otherwise;
     * `superseded` when it was renewed, changed or revoked meanwhile).
     */
    async expireGrant(input: { tenantId: string; userId: string; capabilityCode: string; expiryId: string }): Promise<RevokeOutcome> {
      try {
        return await expireGrant(db, { tenantId: input.tenantId, userId: input.userId, code: input.capabilityCode, expiryId: input.expiryId });
      } catch (err) {
        throw toActivityFailure(err);
      }
    },
    /** One batch of the request expiry sweep. */
    async expireAccessRequestsBatch(input: { ttlDays: number; batchSize: number }): Promise<{ expired: number; byTenant: Record<string, number> }> {
      return expireRequestsBatch(db, input);
    },
  };
}

export type AccessExpiryActivities = ReturnType<typeof createAccessExpiryActivities>;
