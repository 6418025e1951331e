import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { statusOf, type ErrorCode, type ErrorStatus } from '../../domain/error-codes';
import { AppError } from '../../domain/errors';
import { contentionError } from '../../services/platform/contention';
import { databaseUnavailableError } from '../../services/platform/database-unavailable';
import type { AppEnv } from '../env';

export const PROBLEM_JSON = 'application/problem+json';

// Keyed by the table's statuses, so a new status in the table needs its title here.
const TITLES: Record<ErrorStatus, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  requestId?: string;
  [extra: string]: unknown;
}

/** Renders a problem; its status is the code's, from the table. */
export function problem(c: Context<AppEnv>, code: ErrorCode, detail: string, extra = {}) {
  const status = statusOf(code);
  const body: Problem = {
    type: `https://errors.tenant-platform.dev/${code}`,
    title: TITLES[status],
    status,
    detail,
    code,
    requestId: c.get('requestId'),
    ...extra,
  };
  return c.body(JSON.stringify(body), status as ContentfulStatusCode, { 'Content-Type': PROBLEM_JSON });
}

/**
 * Root error handler: an AppError and Hono's 400 and 415 HTTPExceptions (a malformed JSON body,
 * a body of another media type) become problems; anything else is a logged 500.
 */
export const onError: ErrorHandler<AppEnv> = (thrown, c) => {
  // A deadlock or serialisation failure outside withTransactionRetry, or PostgreSQL out of reach
  // (a restart, a failover): not a bug, and the caller may retry; both answer 503 with Retry-After.
  const err = contentionError(thrown) ?? databaseUnavailableError(thrown) ?? thrown;
  if (err instanceof AppError) {
    if (err.status === 401 && err.extra['wwwAuthenticate']) {
      c.header('WWW-Authenticate', String(err.extra['wwwAuthenticate']));
    }
    // A refusal that says when to come back (429 `rate-limited`, 503 `render-queue-full`): the header, and the body field.
    const retryAfter = err.extra['retryAfterSeconds'];
    if (typeof retryAfter === 'number') c.header('Retry-After', String(Math.max(1, Math.ceil(retryAfter))));
    const { wwwAuthenticate: _omit, ...extra } = err.extra;
    return problem(c, err.code, err.detail, extra);
  }
  // Hono's other HTTPExceptions (500s such as a body read twice) are our bugs, not the caller's.
  if (err instanceof HTTPException && err.status === 400) {
    return problem(c, 'malformed-request', err.message || 'The request is malformed');
  }
  // @hono/zod-openapi refuses a body of another media type than the route declares.
  if (err instanceof HTTPException && err.status === 415) {
    return problem(c, 'unsupported-media-type', 'The body must be application/json');
  }
  const log = c.get('log');
  (log ?? console).error({ err }, 'unhandled error');
  return problem(c, 'internal-error', 'An unexpected error occurred; it has been logged.');
};

export const onNotFound: NotFoundHandler<AppEnv> = (c) =>
  problem(c, 'route-not-found', `No route for ${c.req.method} ${c.req.path}`);
