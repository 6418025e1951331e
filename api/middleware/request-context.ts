import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { observeHttpRequest } from '../../integrations/metrics/http';
import { activeTracing } from '../../integrations/tracing/tracing';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { pathForLog } from './log-path';
import { routeTemplate } from './route-template';
import { requestSpanRunner } from './tracing';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it is well-formed, else a new one),
 * echoes it on the response and binds it to a child logger, so every log line carries it. The
 * same layer counts and times the request (when `metrics.port` is set) and runs it inside its
 * trace span (when tracing is on): one middleware instead of three, because on a cached read each
 * extra layer is a measurable part of the request (bench/access-observability.bench.ts).
 */
export const requestContext = (deps: AppDeps) => {
  const metered = deps.settings['metrics.port'] !== 0;
  const tracing = activeTracing();
  return createMiddleware<AppEnv>((c, next) => {
    const given = c.req.header('x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    c.set('deps', deps);
    c.set('requestId', requestId);
    const inSpan = tracing ? requestSpanRunner(c, tracing.rootRatio) : undefined;
    const log = deps.logger.child({ requestId });
    c.set('log', log);
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    const answer = async () => {
      await next();
      const ms = performance.now() - started;
      const logged = log.isLevelEnabled('info');
      if (!metered && !logged) return;
      const route = routeTemplate(c);
      if (metered) observeHttpRequest(c.req.method, route, c.res.status, ms / 1000);
      if (!logged) return;
      const path = pathForLog(c.req.path, route);
      log.info({ userId: c.get('userId'), tenantId: c.get('caller')?.tenantId, method: c.req.method, path, status: c.res.status, ms: Math.round(ms * 10) / 10 }, 'request');
    };
    return inSpan ? inSpan(answer) : answer();
  });
};
