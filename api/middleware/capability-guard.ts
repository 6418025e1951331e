import { createMiddleware } from 'hono/factory';
import { assertCapabilityAccess, type AccessMode } from '../../domain/access/capability-access';
import { countedGuardDecision } from '../../integrations/metrics/access';
import type { AppEnv } from '../env';
import { raises } from '../openapi';

/** The guard every capability route mounts: `capabilityGuard('PHONE', 'write')`. */
export const capabilityGuard = (code: string, mode: AccessMode) =>
  raises(
    createMiddleware<AppEnv>(async (c, next) => {
      countedGuardDecision(() => assertCapabilityAccess(c.get('caller').snapshot, code, mode));
      await next();
    }),
    'capability-not-subscribed',
    'capability-not-granted',
    ...(mode === 'write' ? (['capability-write-required'] as const) : []),
  );
