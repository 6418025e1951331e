// Access that expires (docs/access.md "Expiry"): grants with an end, requests with a lifetime.
import { AppError } from '../errors';

export const ACCESS_REQUEST_STATUSES = ['PENDING', 'APPROVED', 'DENIED', 'CANCELLED', 'EXPIRED'] as const;
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number];

/** The audit actor of a revocation by a grant's timer, and of a request's expiry. */
export const GRANT_EXPIRY_ACTOR = 'system:grant-expiry';
export const REQUEST_EXPIRY_ACTOR = 'system:request-expiry';

/** The longest duration a request may ask for (ten years), as the column's check allows. */
export const MAX_REQUEST_DURATION_DAYS = 3650;

const DAY_MS = 86_400_000;

/** 400 `validation-failed` naming the field, for an end that is not after now. */
export function requireFutureExpiry(expiresAt: Date | null | undefined, now: Date, path = 'json.expiresAt'): void {
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    throw new AppError('validation-failed', `Invalid request json: ${path}: must be in the future`, {
      errors: [{ path, message: 'must be in the future' }],
    });
  }
}

/**
 * When an approved grant ends: the approver's `expiresAt` wins; else the duration the requester
 * asked for, from the approval; else never.
 */
export function approvalExpiry(input: { expiresAt?: Date | null | undefined; requestedDurationDays: number | null; now: Date }): Date | null {
  if (input.expiresAt) return input.expiresAt;
  if (input.requestedDurationDays) return new Date(input.now.getTime() + input.requestedDurationDays * DAY_MS);
  return null;
}

/** The instant before which a PENDING request created then has outlived `ttlDays`. */
export const requestExpiryCutoff = (now: Date, ttlDays: number) => new Date(now.getTime() - ttlDays * DAY_MS);
