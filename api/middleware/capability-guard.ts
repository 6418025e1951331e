import { createMiddleware } from 'hono/factory';
import type { CallerSnapshot } from '../../db/queries/caller-snapshot';
import { forbidden } from '../../domain/errors';
import type { AppEnv } from '../env';

export type AccessMode = 'read' | 'write';

/**
 * Two layers, deny by default. Denials are 403 with a code naming the missing layer:
 * `capability-not-subscribed` (layer 1), `capability-not-granted` (layer 2, no grant) and
 * `capability-write-required` (layer 2, read grant on a write). Decided from the caller
 * snapshot the identity middleware loaded, so it adds no round trip.
 */
export function assertCapabilityAccess(snapshot: Pick<CallerSnapshot, 'subscriptions' | 'grants'>, code: string, mode: AccessMode) {
  if (snapshot.subscriptions[code] !== 'ACTIVE') {
    throw forbidden('capability-not-subscribed', `Tenant has no ACTIVE subscription to ${code}`);
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
export function hasCapabilityAccess(snapshot: Pick<CallerSnapshot, 'subscriptions' | 'grants'>, code: string, mode: AccessMode): boolean {
  const level = snapshot.grants[code];
  return snapshot.subscriptions[code] === 'ACTIVE' && level !== undefined && (mode === 'read' || level === 'read-write');
}

/** The guard every capability route mounts: `capabilityGuard('PHONE', 'write')`. */
export const capabilityGuard = (code: string, mode: AccessMode) =>
  createMiddleware<AppEnv>(async (c, next) => {
    assertCapabilityAccess(c.get('caller').snapshot, code, mode);
    await next();
  });
