import type { Context, MiddlewareHandler, Next } from 'hono';
import { isBodilessRead } from '../body';
import type { AppEnv } from '../env';
import { asOwnLayer } from './own-layer';

const ACCESS_WRITES = /^\/api\/(tenants|capabilities|invitations|org)(\/|$)/;

/**
 * A revocation is everywhere before it is acknowledged (docs/access.md "Caching across nodes"):
 * after an access write, this node drops the affected snapshots and the answer waits until every
 * live API node has dropped them too, or the bounded wait (access.invalidation-wait-ms) passed.
 * A refused write (4xx) changed nothing, so it only drops the snapshots here.
 *
 * One layer with the app-wide body bound it wraps (`inner`, api/body.ts): a read passes both
 * with no work of its own, where two layers of Hono's compose were a measurable part of a cached
 * guarded read (bench/access.bench.ts). Around an access write, `inner` still answers as its own
 * layer did: what it throws becomes the error's answer before the invalidation looks at it.
 */
export function invalidateAccessCacheAfterWrite(inner: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    if (isBodilessRead(c.req.method) || !c.get('deps').accessCache || !ACCESS_WRITES.test(c.req.path)) return inner(c, next);
    return invalidateAfter(c, inner, next);
  };
}

async function invalidateAfter(c: Context<AppEnv>, inner: MiddlewareHandler<AppEnv>, next: Next) {
  await asOwnLayer(c, inner, next);
  const cache = c.get('deps').accessCache!;
  const tenantId = c.get('caller')?.tenantId ?? '*';
  if (c.res.status >= 400 && c.res.status < 500) return cache.invalidate(tenantId);
  await cache.invalidateEverywhere(tenantId);
}
