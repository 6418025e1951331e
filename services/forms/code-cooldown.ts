// The resend cooldown of one-time codes, told to the caller (429 with Retry-After) instead of a
// silent 202, without telling whether the link exists: the cooldown is kept per link token (its
// hash) for every token asked about, known or not, in the rate_limits table every node shares.
// The code row's own sentAt check (issueRecipientCode) stays the backstop for parallel requests.
import { createHash } from 'node:crypto';
import { RateLimiterRes, type RateLimiterDrizzle } from 'rate-limiter-flexible';
import type { Db } from '../../db/client';
import { createRateLimiter } from '../../db/queries/rate-limits';
import { AppError } from '../../domain/errors';

const limiters = new WeakMap<Db, Map<number, RateLimiterDrizzle>>();

function limiterFor(db: Db, seconds: number): RateLimiterDrizzle {
  let bySeconds = limiters.get(db);
  if (!bySeconds) limiters.set(db, (bySeconds = new Map()));
  let limiter = bySeconds.get(seconds);
  if (!limiter) bySeconds.set(seconds, (limiter = createRateLimiter(db, { keyPrefix: 'forms-recipient-code-cooldown', points: 1, duration: seconds })));
  return limiter;
}

/**
 * Starts the token's cooldown, or throws 429 `rate-limited` with the seconds left when one runs.
 * A cooldown of 0 seconds is none.
 */
export async function startCodeCooldown(db: Db, seconds: number, token: string): Promise<void> {
  if (seconds <= 0) return;
  try {
    await limiterFor(db, seconds).consume(createHash('sha256').update(token).digest('base64url'));
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const retryAfterSeconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    throw new AppError('rate-limited', `A code was asked for less than ${seconds} seconds ago; ask again in ${retryAfterSeconds} seconds`, {
      retryAfterSeconds,
    });
  }
}
