import { createMiddleware } from 'hono/factory';
import { capabilityStanding } from '../../db/queries/entitlements';
import { forbidden } from '../../domain/errors';
import type { AppEnv } from '../env';

export type AccessMode = 'read' | 'write';

/**
 * Two layers, deny by default. Denials are 403 with a code naming the missing layer:
 * `capability-not-subscribed` (layer 1), `capability-not-granted` (layer 2, no grant) and
 * `capability-write-required` (layer 2, read grant on a write).
 */
export const capabilityGuard = (code: string, mode: AccessMode) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const caller = c.get('caller');
    const standing = await capabilityStanding(c.get('deps').db, caller.tenantId, caller.userId, code);
    if (standing.subscription !== 'ACTIVE') {
      throw forbidden('capability-not-subscribed', `Tenant has no ACTIVE subscription to ${code}`);
    }
    if (standing.level === null) {
      throw forbidden('capability-not-granted', `Caller has no grant on ${code}`);
    }
    if (mode === 'write' && standing.level !== 'read-write') {
      throw forbidden('capability-write-required', `Writing to ${code} needs a read-write grant`);
    }
    await next();
  });
