import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';

const ACCESS_WRITES = /^\/api\/(tenants|capabilities|invitations|org)(\/|$)/;

/**
 * A revocation is everywhere before it is acknowledged (docs/access.md "Caching across nodes"):
 * after an access write, this node drops the affected snapshots and the answer waits until every
 * live API node has dropped them too, or the bounded wait (access.invalidation-wait-ms) passed.
 * A refused write (4xx) changed nothing, so it only drops the snapshots here.
 */
export const invalidateAccessCacheAfterWrite = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const cache = c.get('deps').accessCache;
  if (!cache || c.req.method === 'GET' || c.req.method === 'HEAD' || !ACCESS_WRITES.test(c.req.path)) return;
  const tenantId = c.get('caller')?.tenantId ?? '*';
  if (c.res.status >= 400 && c.res.status < 500) return cache.invalidate(tenantId);
  await cache.invalidateEverywhere(tenantId);
});
