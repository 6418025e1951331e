import { ApplicationFailure } from '@temporalio/activity';
import { AppError } from '../domain/errors';

/**
 * What an activity throws for an error from services/: an AppError becomes an ApplicationFailure
 * typed with its code, so workflows see the same codes the API answers with. A 4xx is the
 * caller's or the business's to fix and retrying cannot help, so it is non-retryable; a 5xx is a
 * dependency's trouble and retries. Anything else is returned as it is (Temporal retries it).
 */
export function toActivityFailure(err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  return ApplicationFailure.create({
    message: err.detail,
    type: err.code,
    nonRetryable: err.status < 500,
    details: [{ ...err.extra, code: err.code, status: err.status }],
  });
}
