import { forbidden } from '../errors';

export type AccessMode = 'read' | 'write';

/** What the capability rule reads of a caller: the tenant's subscriptions and the caller's grants. */
export interface CapabilitySnapshot {
  subscriptions: Record<string, string | undefined>;
  grants: Record<string, string | undefined>;
}

/**
 * Two layers, deny by default. Denials are 403 with a code naming the missing layer:
 * `capability-not-subscribed` (layer 1), `capability-not-granted` (layer 2, no grant) and
 * `capability-write-required` (layer 2, read grant on a write).
 */
export function assertCapabilityAccess(snapshot: CapabilitySnapshot, code: string, mode: AccessMode) {
  assertSubscribed(snapshot, code);
  const level = snapshot.grants[code];
  if (level === undefined) {
    throw forbidden('capability-not-granted', `Caller has no grant on ${code}`);
  }
  if (mode === 'write' && level !== 'read-write') {
    throw forbidden('capability-write-required', `Writing to ${code} needs a read-write grant`);
  }
}

/**
 * Layer 1 alone, for callers that act for the tenant itself and hold no grants (a workflow, the
 * internal key): same code and detail as the full rule's layer-1 denial.
 */
export function assertSubscribed(snapshot: Pick<CapabilitySnapshot, 'subscriptions'>, code: string) {
  if (snapshot.subscriptions[code] !== 'ACTIVE') {
    throw forbidden('capability-not-subscribed', `Tenant has no ACTIVE subscription to ${code}`);
  }
}

/** The same rule as a predicate, for lists filtered by what the caller may see. */
export function hasCapabilityAccess(snapshot: CapabilitySnapshot, code: string, mode: AccessMode): boolean {
  const level = snapshot.grants[code];
  return snapshot.subscriptions[code] === 'ACTIVE' && level !== undefined && (mode === 'read' || level === 'read-write');
}
