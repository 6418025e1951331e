import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type TextMapGetter } from '@opentelemetry/api';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { routeTemplate } from './metrics';

const tracer = trace.getTracer('platform-api');

const fromHeaders: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/**
 * One SERVER span per request, continuing the caller's W3C `traceparent` when it sends one. The
 * span is named by the route template, never the raw path (paths carry ids and embed tokens).
 * Everything the request does (outbox rows, log lines) runs inside it.
 */
export const traceRequests = createMiddleware<AppEnv>(async (c, next) => {
  // Most requests carry no trace context: skip the propagator's walk over every header for them.
  const parent = c.req.raw.headers.has('traceparent') ? propagation.extract(ROOT_CONTEXT, c.req.raw.headers, fromHeaders) : ROOT_CONTEXT;
  const span = tracer.startSpan(c.req.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': c.req.method } }, parent);
  try {
    await context.with(trace.setSpan(parent, span), next);
  } finally {
    const route = routeTemplate(c);
    span.updateName(`${c.req.method} ${route}`);
    span.setAttributes({ 'http.route': route, 'http.response.status_code': c.res.status });
    if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }
});
