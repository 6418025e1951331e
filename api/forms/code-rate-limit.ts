// The budgets of one-time-code requests and verifications (per client address, per link token),
// shared by the forms recipients and the signers: the same settings, each capability its own keys.
import type { MiddlewareHandler } from 'hono';
import { createPairedRateLimits, type SubmissionRateLimits } from '../../services/forms/submission-rate-limits';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { clientAddress } from '../middleware/client-address';
import { raises } from '../openapi';

/** Middleware counting against the `prefix` budgets; above either, 429 `rate-limited`. */
export function codeRateLimit(prefix: string): MiddlewareHandler<AppEnv> {
  const limitsOf = new WeakMap<AppDeps, SubmissionRateLimits>();
  return raises(async (c, next) => {
    const deps = c.get('deps');
    let limits = limitsOf.get(deps);
    if (!limits) {
      limits = createPairedRateLimits(deps.db, {
        prefix,
        perIpPerMinute: deps.settings['forms.rate-limit.recipient-per-ip-per-minute'],
        perTokenPerMinute: deps.settings['forms.rate-limit.recipient-per-token-per-minute'],
        refusal: 'Too many code requests; retry later',
      });
      limitsOf.set(deps, limits);
    }
    await limits.consume(clientAddress(c), c.req.param('token') ?? '');
    await next();
  }, 'rate-limited');
}
