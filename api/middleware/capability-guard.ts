import { createMiddleware } from 'hono/factory';
import { assertCapabilityAccess, type AccessMode } from '../../domain/access/capability-access';
import type { AppEnv } from '../env';

/** The guard every capability route mounts: `capabilityGuard('PHONE', 'write')`. */
export const capabilityGuard = (code: string, mode: AccessMode) =>
  createMiddleware<AppEnv>(async (c, next) => {
    assertCapabilityAccess(c.get('caller').snapshot, code, mode);
    await next();
  });
