import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context as OtelContext, type Span, type TextMapGetter } from '@opentelemetry/api';
import type { Context } from 'hono';
import { API_TRACER, RootRead } from '../../integrations/tracing/root-reads';
import type { Tracing } from '../../integrations/tracing/tracing';
import type { AppEnv } from '../env';
import { requestHeader } from './request-header';
import { routeTemplate } from './route-template';

const tracer = trace.getTracer(API_TRACER);

const fromHeaders: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/** Methods whose routes never write an outbox row: no process they start needs the trace context. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A request recorded as an SDK span: a write, or a read that continues a caller's trace. */
class SpanTrace {
  constructor(
    readonly span: Span,
    /** The context the request runs in (writes only); undefined: the request runs outside it. */
    readonly scope: OtelContext | undefined,
  ) {}
}

/** How a request is recorded: a root read drawn into the sample (root-reads.ts), or an SDK span. */
export type RequestTrace = RootRead | SpanTrace;

/**
 * How the request is recorded, continuing the caller's W3C `traceparent` when it sends one, or
 * undefined for a read drawn out of the sample. Its SERVER span is named by the route template,
 * never the raw path (paths carry ids and link tokens).
 *
 * A read that carries no trace context (a root read) starts no process, so nothing downstream
 * needs a decision from it: the sampler's ratio is drawn here (`rootRatio`, from
 * OTEL_TRACES_SAMPLER). Drawn out, it runs with nothing recorded, at the cost of one random
 * number; drawn in, it is recorded by the root-read recorder, without an SDK span.
 *
 * A write, or a read continuing a caller's trace, is an SDK span, sampled by the SDK's sampler.
 * Only a write runs inside its span's context (`scope`), so its outbox row stores the trace (and
 * the decision, recorded or not) for the workflow it starts. A read runs outside any context: it
 * writes no outbox row and starts no span of its own, its log lines carry the span's ids as
 * bindings (requestLogBindings), and entering a context is what switches the process's context
 * storage on, which on async_hooks costs every promise of every request while it is on
 * (integrations/tracing/context-manager.ts).
 */
export function startRequestSpan(c: Context<AppEnv>, tracing: Tracing): RequestTrace | undefined {
  // Most requests carry no trace context: skip the propagator's walk over every header for them.
  const carried = requestHeader(c, 'traceparent') !== undefined;
  const read = READS.has(c.req.method);
  if (read && !carried) return tracing.rootRatio >= 1 || Math.random() < tracing.rootRatio ? tracing.rootReads.start() : undefined;
  const parent = carried ? propagation.extract(ROOT_CONTEXT, c.req.raw.headers, fromHeaders) : ROOT_CONTEXT;
  const span = tracer.startSpan(c.req.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': c.req.method } }, parent);
  return new SpanTrace(span, read ? undefined : trace.setSpan(parent, span));
}

/** The trace's ids for the request's log lines, when it runs outside a span's context (a read). */
export function requestLogBindings(t: RequestTrace | undefined): { traceId: string; spanId: string } | undefined {
  if (!t) return undefined;
  if (t instanceof RootRead) return { traceId: t.traceId, spanId: t.spanId };
  if (t.scope) return undefined;
  const { traceId, spanId } = t.span.spanContext();
  return { traceId, spanId };
}

/**
 * Runs the rest of the request (`answer`) in its trace, inside the span's context for a write, and
 * ends the span: at once when the rest answered synchronously (a cached read, through Hono's compose
 * as patched), after it otherwise. A sampled read that went asynchronous only to end its span would
 * send the request, and Hono's dispatch and the Node adapter after it, down their promise paths for
 * that one request; a process whose hot paths see a promise now and then runs them all more slowly
 * (bench/access-observability.bench.ts).
 */
export function runTraced(c: Context<AppEnv>, t: RequestTrace, answer: () => Promise<void> | undefined): Promise<void> | undefined {
  let rest: Promise<void> | undefined;
  try {
    rest = t instanceof SpanTrace && t.scope ? context.with(t.scope, answer) : answer();
  } catch (err) {
    endRequestTrace(c, t);
    throw err;
  }
  if (rest instanceof Promise) return rest.finally(() => endRequestTrace(c, t));
  endRequestTrace(c, t);
  return undefined;
}

function endRequestTrace(c: Context<AppEnv>, t: RequestTrace) {
  if (t instanceof RootRead) return t.end(c.req.method, routeTemplate(c), c.res.status);
  const span = t.span;
  // An unsampled span records nothing: naming it would only cost the request time.
  if (span.isRecording()) {
    const route = routeTemplate(c);
    span.updateName(`${c.req.method} ${route}`);
    span.setAttributes({ 'http.route': route, 'http.response.status_code': c.res.status });
    if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
