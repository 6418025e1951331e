import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type TextMapGetter } from '@opentelemetry/api';
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { routeTemplate } from './route-template';

const tracer = trace.getTracer('platform-api');

const fromHeaders: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/** Methods whose routes never write an outbox row: no process they start needs the trace decision. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The request's SERVER span, continuing the caller's W3C `traceparent` when it sends one. It is
 * named by the route template, never the raw path (paths carry ids and embed tokens). Everything
 * the request does (outbox rows, log lines) runs inside it, except in one case: a read the sampler
 * dropped, begun here. Nothing records it and a read starts no process, so nothing downstream needs
 * the span active; activating it (an AsyncLocalStorage frame) was most of what tracing cost a
 * cached read at low sampling rates (bench/access-observability.bench.ts). Its ids then go into the
 * request's log bindings (`logIds`) instead of coming from the active span.
 */
export function openRequestSpan(c: Context<AppEnv>) {
  // Most requests carry no trace context: skip the propagator's walk over every header for them.
  const carried = c.req.raw.headers.has('traceparent');
  const parent = carried ? propagation.extract(ROOT_CONTEXT, c.req.raw.headers, fromHeaders) : ROOT_CONTEXT;
  const span = tracer.startSpan(c.req.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': c.req.method } }, parent);
  const active = carried || span.isRecording() || !READS.has(c.req.method);
  const { traceId, spanId } = span.spanContext();

  async function runInSpan(answer: () => Promise<void>) {
    try {
      await context.with(trace.setSpan(parent, span), answer);
    } finally {
      // An unsampled span records nothing: naming it would only cost the request time.
      if (span.isRecording()) {
        const route = routeTemplate(c);
        span.updateName(`${c.req.method} ${route}`);
        span.setAttributes({ 'http.route': route, 'http.response.status_code': c.res.status });
        if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    }
  }

  return {
    logIds: active ? undefined : { traceId, spanId },
    /** An inactive span is unsampled: ending it would do nothing, so it gets no wrapper either. */
    run: (answer: () => Promise<void>): Promise<void> => (active ? runInSpan(answer) : answer()),
  };
}
