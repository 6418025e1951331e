/** Ten minutes: no retry of a delivery waits longer. */
const MAX_DELAY_MS = 600_000;

/**
 * What a failed delivery attempt leads to, for the outbox and the form event rail alike: the
 * attempts so far, whether that was the last one, and the wait before the next (exponential from
 * `backoffMs`, capped at ten minutes, scaled by `jitter`, a factor in (0, 1]).
 */
export function afterFailedAttempt(retryCount: number, maxAttempts: number, backoffMs: number, jitter = 1) {
  const attempts = retryCount + 1;
  return {
    attempts,
    failed: attempts >= maxAttempts,
    delaySeconds: (Math.min(backoffMs * 2 ** (attempts - 1), MAX_DELAY_MS) * jitter) / 1000,
  };
}
