import type { z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from '../domain/errors';
import type { AppEnv } from './env';

/** Parses and validates a JSON text, answering 400 problems like the route validators do. */
export function parseJsonBody<T extends z.ZodType>(text: string, schema: T): z.output<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('malformed-request', 'Request body is not valid JSON');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationFailed('json', parsed.error.issues);
  return parsed.data;
}

type Issue = { path: PropertyKey[]; message: string };

/** Issues as `{ path: 'json.field.0', message }`, the path led by the request part. */
export function fieldErrors(target: string, issues: readonly Issue[]) {
  return issues.map((i) => ({ path: [target, ...i.path.map(String)].join('.'), message: i.message }));
}

/** The 400 `validation-failed` problem every route answers for input its schema refuses. */
export function validationFailed(target: string, issues: readonly Issue[]): AppError {
  const errors = fieldErrors(target, issues);
  const first = errors[0];
  return new AppError('validation-failed', `Invalid request ${target}${first ? `: ${first.path}: ${first.message}` : ''}`, { errors });
}

/**
 * Bounds a request body on the stream (a lying or absent Content-Length changes nothing): past
 * `maxBytes` the request is 413 `payload-too-large`. `what` names the bodies in the detail.
 */
export function boundedBody(maxBytes: number | ((c: Context<AppEnv>) => number), what: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const maxSize = typeof maxBytes === 'number' ? maxBytes : maxBytes(c);
    return bodyLimit({
      maxSize,
      onError: () => {
        throw new AppError('payload-too-large', `${what} are limited to ${maxSize} bytes`);
      },
    })(c, next);
  };
}
