import { statusOf, type CodeWithStatus, type ErrorCode, type ErrorStatus } from './error-codes';

export type { ErrorCode } from './error-codes';

/**
 * The one error type that crosses layers. Domain and db code throw it by code; its status comes
 * from the code table (domain/error-codes.ts). The API's root error handler renders it as
 * application/problem+json; activities turn it into an ApplicationFailure (activities/failures.ts).
 */
export class AppError extends Error {
  readonly status: ErrorStatus;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'AppError';
    this.status = statusOf(code);
  }
}

// Shorthands named after a status take only codes the table gives that status (a compile error otherwise).

export const notFound = (what: string, code: CodeWithStatus<404>) => new AppError(code, `${what} was not found`);

export const conflict = (code: CodeWithStatus<409>, detail: string) => new AppError(code, detail);

export const forbidden = (code: CodeWithStatus<403>, detail: string) => new AppError(code, detail);

export const badRequest = (code: CodeWithStatus<400>, detail: string, extra?: Record<string, unknown>) =>
  new AppError(code, detail, extra);
