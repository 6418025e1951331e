import type { Context, MiddlewareHandler, Next } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Logger } from 'pino';
import { observeHttpRequest } from '../../integrations/metrics/http';
import { activeTracing } from '../../integrations/tracing/tracing';
import { isBodilessRead } from '../body';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { pathForLog } from './log-path';
import { requestHeader } from './request-header';
import { answerWithRequestId, newRequestId } from './request-id';
import { asOwnLayer } from './own-layer';
import { lazyChildren } from './request-logger';
import { routeTemplate } from './route-template';
import { requestLogBindings, runTraced, startRequestSpan } from './tracing';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it is well-formed, else a new one),
 * echoes it on the response and binds it to a child logger, so every log line carries it. The
 * same layer counts and times the request (when `metrics.port` is set) and runs it in its trace
 * span (when tracing is on): one middleware instead of three, because on a cached read each extra
 * layer is a measurable part of the request (bench/access.bench.ts). For the same reason an
 * untraced request creates no closure here (each costs a name under tsx, about 0.7 µs), and its
 * child logger is built only if something logs (request-logger.ts).
 *
 * `writeLayers`, when given, are app-wide layers that act on writes only (the body bound and the
 * access-cache invalidation, api/app.ts): this layer runs them itself, as their own layer would
 * (asOwnLayer), and a read (GET, HEAD) skips them. As a layer of their own they cost every read
 * one more step of Hono's compose: the cached guarded read went from about 0.70 to 0.72 of the
 * bare route without it.
 */
export const requestContext = (deps: AppDeps, writeLayers?: MiddlewareHandler<AppEnv>) => {
  const metered = deps.settings['metrics.port'] !== 0;
  const tracing = activeTracing();
  const requestLog = lazyChildren(deps.logger);
  // A layer that answers synchronously is finished for Hono's compose as patched
  // (patches/hono+4.13.19.patch); Hono's types still say every middleware returns a promise.
  const layer = (c: Context<AppEnv>, next: Next): Promise<void> | undefined => {
    const given = requestHeader(c, 'x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : newRequestId();
    c.set('deps', deps);
    c.set('requestId', requestId);
    answerWithRequestId(c, requestId);
    const started = performance.now();
    const traced = tracing ? startRequestSpan(c, tracing) : undefined;
    const spanIds = requestLogBindings(traced);
    const log = requestLog(spanIds ? { requestId, ...spanIds } : { requestId });
    c.set('log', log);
    const rest = writeLayers && !isBodilessRead(c.req.method) ? () => asOwnLayer(c, writeLayers, next) : next;
    if (!traced) return answer(c, rest, log, started, metered);
    return runTraced(c, traced, () => answer(c, rest, log, started, metered));
  };
  return createMiddleware<AppEnv>(layer as MiddlewareHandler<AppEnv>);
};

/**
 * The rest of the request, then its figures and its log line: at once when the rest answered
 * synchronously (Hono's compose, patched, settles a chain of synchronous layers without a promise
 * per layer), after it otherwise.
 */
function answer(c: Context<AppEnv>, next: Next, log: Logger, started: number, metered: boolean): Promise<void> | undefined {
  const rest: unknown = next();
  if (rest instanceof Promise) return rest.then(() => record(c, log, started, metered));
  record(c, log, started, metered);
  return undefined;
}

function record(c: Context<AppEnv>, log: Logger, started: number, metered: boolean) {
  const logged = log.isLevelEnabled('info');
  if (!metered && !logged) return;
  const ms = performance.now() - started;
  const route = routeTemplate(c);
  if (metered) observeHttpRequest(c.req.method, route, c.res.status, ms / 1000);
  if (!logged) return;
  const path = pathForLog(c.req.path, route);
  log.info({ userId: c.get('userId'), tenantId: c.get('caller')?.tenantId, method: c.req.method, path, status: c.res.status, ms: Math.round(ms * 10) / 10 }, 'request');
}
