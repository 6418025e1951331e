// Two per-minute budgets in front of a public route, one per client address and one per link or
// embed token, counted in PostgreSQL so every API node shares them; above either, 429 `rate-limited`.
import type { Context, MiddlewareHandler } from 'hono';
import type { Settings } from '../../domain/settings';
import { createPairedRateLimits, type PairedRateLimits } from '../../services/forms/paired-rate-limits';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { raises } from '../openapi';
import { clientAddress } from './client-address';

export interface PairedRateLimit {
  /** Key prefix of both budgets: each route family its own. */
  prefix: string;
  perIpPerMinute: (settings: Settings) => number;
  perTokenPerMinute: (settings: Settings) => number;
  /** The problem's detail when refused. */
  refusal: string;
  /** The token whose budget the request spends. */
  token: (c: Context<AppEnv>) => string;
}

export function pairedRateLimit(o: PairedRateLimit): MiddlewareHandler<AppEnv> {
  const limitsOf = new WeakMap<AppDeps, PairedRateLimits>();
  return raises(async (c, next) => {
    const deps = c.get('deps');
    let limits = limitsOf.get(deps);
    if (!limits) {
      const { prefix, refusal } = o;
      limits = createPairedRateLimits(deps.db, { prefix, refusal, perIpPerMinute: o.perIpPerMinute(deps.settings), perTokenPerMinute: o.perTokenPerMinute(deps.settings) });
      limitsOf.set(deps, limits);
    }
    await limits.consume(clientAddress(c), o.token(c));
    await next();
  }, 'rate-limited');
}
