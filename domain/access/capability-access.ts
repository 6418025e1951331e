import { AppError, forbidden } from '../errors';

export type AccessMode = 'read' | 'write';

/** What the capability rule reads of a caller: the tenant's subscriptions and the caller's grants. */
export interface CapabilitySnapshot {
  subscriptions: Record<string, string | undefined>;
  grants: Record<string, string | undefined>;
}

/**
 * Two layers, deny by default. Each denial names the missing layer: `capability-not-subscribed`
 * (layer 1, 422 like the spec's access request for an unsubscribed capability),
 * `capability-not-granted` (layer 2, no grant) and `capability-write-required` (layer 2, read
 * grant on a write), both 403.
 */
export function assertCapabilityAccess(snapshot: CapabilitySnapshot, code: string, mode: AccessMode) {
  if (snapshot.subscriptions[code] !== 'ACTIVE') {
    throw new AppError('capability-not-subscribed', `Tenant has no ACTIVE subscription to ${code}`);
  }
  const level = snapshot.grants[code];
  if (level === undefined) {
    throw forbidden('capability-not-granted', `Caller has no grant on ${code}`);
  }
  if (mode === 'write' && level !== 'read-write') {
    throw forbidden('capability-write-required', `Writing to ${code} needs a read-write grant`);
  }
}

/** The same rule as a predicate, for lists filtered by what the caller may see. */
export function hasCapabilityAccess(snapshot: CapabilitySnapshot, code: string, mode: AccessMode): boolean {
  const level = snapshot.grants[code];
  return snapshot.subscriptions[code] === 'ACTIVE' && level !== undefined && (mode === 'read' || level === 'read-write');
}
