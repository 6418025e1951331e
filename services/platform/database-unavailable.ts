import { isConnectionFailure } from '../../db/errors';
import { AppError } from '../../domain/errors';

/**
 * What the caller is told to wait while PostgreSQL is out of reach: a restart or a failover takes
 * seconds, and a caller retrying every second would only add to the load of the recovery.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * A connection-level failure of PostgreSQL (refused, reset, closed by a shutdown, not accepting
 * yet, out of connection slots), as the problem it is for a caller: `database-unavailable`, retry
 * after a few seconds. Which errors those are is the database layer's business, so the HTTP layer
 * asks here instead of reading driver codes.
 */
export function databaseUnavailableError(err: unknown): AppError | undefined {
  if (err instanceof AppError || !isConnectionFailure(err)) return undefined;
  return new AppError('database-unavailable', 'The database is not reachable at the moment; try again', {
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  });
}
