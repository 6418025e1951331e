import { isTransientConflict } from '../../db/errors';
import { CONTENTION_RETRY_AFTER_SECONDS } from '../../db/transaction-retry';
import { AppError } from '../../domain/errors';

/**
 * A deadlock or serialisation failure that escaped `withTransactionRetry`, as the problem it is for
 * a caller: `write-contention`, retry after a second. The SQLSTATE is the database's business, so
 * the HTTP layer asks here instead of reading it.
 */
export function contentionError(err: unknown): AppError | undefined {
  if (err instanceof AppError || !isTransientConflict(err)) return undefined;
  return new AppError('write-contention', 'The write collided with a concurrent write; try again', {
    retryAfterSeconds: CONTENTION_RETRY_AFTER_SECONDS,
  });
}
