import { AppError } from '../domain/errors';
import type { Db, Tx } from './client';
import { isTransientConflict } from './errors';

export interface RetryOptions {
  /** Runs of the whole transaction, the first included. */
  attempts?: number;
  /** The first pause between runs; each later pause doubles, with jitter. */
  baseDelayMs?: number;
}

/** What the caller is told to wait when the retries are spent: the contention is short-lived. */
export const CONTENTION_RETRY_AFTER_SECONDS = 1;

/**
 * Runs `work` in a transaction and runs it again, a bounded number of times, when PostgreSQL
 * aborts it with a deadlock (40P01) or a serialisation failure (40001): both mean "another
 * transaction got there first", and a rerun sees its result. `work` must therefore be safe to run
 * again from the start (no side effects outside the transaction). When every run collided, the
 * caller gets a 503 `write-contention` with Retry-After, never a 500.
 */
export async function withTransactionRetry<T>(db: Db, work: (tx: Tx) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 5;
  const baseDelayMs = options.baseDelayMs ?? 10;
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (err) {
      if (!isTransientConflict(err)) throw err;
      if (attempt >= attempts) {
        throw new AppError('write-contention', `The write collided with concurrent writes ${attempts} times; try again`, {
          retryAfterSeconds: CONTENTION_RETRY_AFTER_SECONDS,
        });
      }
      // Jitter keeps two colliding transactions from colliding again in step.
      const delay = baseDelayMs * 2 ** (attempt - 1);
      await new Promise((resolve) => setTimeout(resolve, delay / 2 + Math.random() * delay));
    }
  }
}
