import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';

const ACCESS_WRITES = /^\/api\/(tenants|capabilities|invitations|org)(\/|$)/;

/**
 * The node that changed access drops the affected snapshots before it answers, so its own
 * next request never sees stale grants (other nodes learn through NOTIFY a moment later).
 */
export const invalidateAccessCacheAfterWrite = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const cache = c.get('deps').accessCache;
  if (!cache || c.req.method === 'GET' || c.req.method === 'HEAD' || !ACCESS_WRITES.test(c.req.path)) return;
  cache.invalidate(c.get('caller')?.tenantId ?? '*');
});
