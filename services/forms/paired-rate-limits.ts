// Per-IP and per-token budgets of the public routes (spec rule 1 for embed submissions; the
// one-time-code routes and embed attachment uploads alike), counted in PostgreSQL
// (rate-limiter-flexible's RateLimiterDrizzle on the platform's own drizzle client) so every API
// node shares one budget and nothing beyond the database is needed.
import { createHash } from 'node:crypto';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../../db/client';
import { createRateLimiter } from '../../db/queries/rate-limits';
import { AppError } from '../../domain/errors';

export interface PairedRateLimits {
  /** Spends one point of both budgets; throws 429 `rate-limited` (with `retryAfterSeconds`) when either is spent. */
  consume(clientAddress: string, token: string): Promise<void>;
}

/** Two per-minute budgets, one per client address and one per token, under their own key prefixes. */
export function createPairedRateLimits(
  db: Db,
  p: { prefix: string; perIpPerMinute: number; perTokenPerMinute: number; refusal: string },
): PairedRateLimits {
  const limiter = (keyPrefix: string, points: number) => createRateLimiter(db, { keyPrefix, points, duration: 60 });
  const perIp = limiter(`${p.prefix}-ip`, p.perIpPerMinute);
  const perToken = limiter(`${p.prefix}-token`, p.perTokenPerMinute);
  // Keys of bounded size whatever a caller sends; the token itself is a credential, not stored.
  const keyOf = (value: string) => createHash('sha256').update(value).digest('base64url');

  return {
    async consume(clientAddress, token) {
      try {
        await perIp.consume(keyOf(clientAddress));
        await perToken.consume(keyOf(token));
      } catch (err) {
        if (err instanceof RateLimiterRes) {
          const retryAfterSeconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
          throw new AppError('rate-limited', p.refusal, { retryAfterSeconds });
        }
        throw err;
      }
    },
  };
}
