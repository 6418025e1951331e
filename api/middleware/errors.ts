import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError } from '../../domain/errors';
import type { AppEnv } from '../env';

export const PROBLEM_JSON = 'application/problem+json';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  423: 'Locked',
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

export function problem(c: Context<AppEnv>, status: number, code: string, detail: string, extra = {}) {
  const body: Problem = {
    type: `https://errors.tenant-platform.dev/${code}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    requestId: c.get('requestId'),
    ...extra,
  };
  return c.body(JSON.stringify(body), status as ContentfulStatusCode, { 'Content-Type': PROBLEM_JSON });
}

/** Root error handler: AppError and HTTPException become problems; anything else is a logged 500. */
export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof AppError) {
    if (err.status === 401 && err.extra['wwwAuthenticate']) {
      c.header('WWW-Authenticate', String(err.extra['wwwAuthenticate']));
    }
    const { wwwAuthenticate: _omit, ...extra } = err.extra;
    return problem(c, err.status, err.code, err.detail, extra);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    // Hono raises these for malformed JSON bodies and similar edge failures.
    const code = status === 400 ? 'malformed-request' : `http-${status}`;
    return problem(c, status, code, err.message || TITLES[status] || 'Error');
  }
  const log = c.get('log');
  (log ?? console).error({ err }, 'unhandled error');
  return problem(c, 500, 'internal-error', 'An unexpected error occurred; it has been logged.');
};

export const onNotFound: NotFoundHandler<AppEnv> = (c) =>
  problem(c, 404, 'route-not-found', `No route for ${c.req.method} ${c.req.path}`);
