/**
 * The one error type that crosses layers. Domain and db code throw it; the API's
 * root error handler renders it as application/problem+json.
 */
export class AppError extends Error {
  constructor(
    /** Stable machine-readable code, documented in the README's error table. */
    readonly code: string,
    readonly status: number,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export const notFound = (what: string, code = 'not-found') =>
  new AppError(code, 404, `${what} was not found`);

export const conflict = (code: string, detail: string) => new AppError(code, 409, detail);

export const forbidden = (code: string, detail: string) => new AppError(code, 403, detail);

export const badRequest = (code: string, detail: string, extra?: Record<string, unknown>) =>
  new AppError(code, 400, detail, extra);
