import type { z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { matchedRoutes } from 'hono/route';
import { AppError } from '../domain/errors';
import type { AppEnv } from './env';
import { requestHeader } from './middleware/request-header';

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

/** GET and HEAD: requests whose body the app never reads, so no layer that acts on writes has work on them. */
export const isBodilessRead = (method: string) => method === 'GET' || method === 'HEAD';

/** Route middleware that bound the body themselves: the app-wide bound steps aside for them. */
const ownBounds = new WeakSet<object>();

/**
 * Bounds a request body on the stream (a lying or absent Content-Length changes nothing): past
 * `maxBytes` the request is 413 `payload-too-large`, answered without reading the rest (with a
 * Content-Length above the bound, without reading any of it). `what` names the bodies in the detail.
 */
export function boundedBody(maxBytes: number | ((c: Context<AppEnv>) => number), what: string): MiddlewareHandler<AppEnv> {
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const maxSize = typeof maxBytes === 'number' ? maxBytes : maxBytes(c);
    return bodyLimit({
      maxSize,
      onError: () => {
        throw new AppError('payload-too-large', `${what} are limited to ${maxSize} bytes`);
      },
    })(c, next);
  };
  ownBounds.add(middleware);
  return middleware;
}

/**
 * The app-wide bound (`http.max-body-bytes`) for every body of a route without its own
 * `boundedBody`. Multipart uploads are streamed to storage and bounded there (`docstore.max-bytes`).
 */
export function appBodyBound(): MiddlewareHandler<AppEnv> {
  const bound = boundedBody((c) => c.get('deps').settings['http.max-body-bytes'], 'Request bodies');
  return (c, next) => {
    // The method first, from Node's headers next: a read needs neither a WHATWG Headers copy of
    // its headers nor the list of matched routes (request-header.ts).
    if (isBodilessRead(c.req.method)) return next();
    // Decided from headers alone: touching `c.req.raw.body` makes the Node adapter wrap the socket
    // in a web stream, and a multipart upload read from the socket itself would then miss its data.
    if (requestHeader(c, 'content-type')?.toLowerCase().startsWith('multipart/form-data')) return next();
    if (matchedRoutes(c).some((r) => ownBounds.has(r.handler))) return next();
    return bound(c, next);
  };
}
