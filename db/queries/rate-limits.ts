// rate_limits: the counters of rate-limiter-flexible's RateLimiterDrizzle, one table for every
// budget (told apart by key prefix), shared by every API node through PostgreSQL.
import { RateLimiterDrizzle } from 'rate-limiter-flexible';
import type { Db } from '../client';
import { rateLimits } from '../schema/rate-limits';

/** A budget of `points` per `duration` seconds per key, counted in the rate_limits table. */
export function createRateLimiter(db: Db, p: { keyPrefix: string; points: number; duration: number }): RateLimiterDrizzle {
  return new RateLimiterDrizzle({ storeClient: db, schema: rateLimits, keyPrefix: p.keyPrefix, points: p.points, duration: p.duration });
}
