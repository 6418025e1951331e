import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context as OtelContext, type Span, type TextMapGetter } from '@opentelemetry/api';
import type { Context } from 'hono';
import { CHOSEN_ROOT } from '../../integrations/tracing/sampler';
import type { AppEnv } from '../env';
import { requestHeader } from './request-header';
import { routeTemplate } from './route-template';

const tracer = trace.getTracer('platform-api');

const fromHeaders: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/** Methods whose routes never write an outbox row: no process they start needs the trace context. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CHOSEN = ROOT_CONTEXT.setValue(CHOSEN_ROOT, true);

/** A request's SERVER span and how it runs. */
export interface RequestTrace {
  span: Span;
  /** The context the request runs in (writes only); undefined: the request runs outside it. */
  scope: OtelContext | undefined;
}

/**
 * The request's SERVER span, continuing the caller's W3C `traceparent` when it sends one, or
 * undefined for a read drawn out of the sample. The span is named by the route template, never the
 * raw path (paths carry ids and link tokens).
 *
 * A read that carries no trace context starts no process, so nothing downstream needs a decision
 * from it: the sampler's ratio is drawn here (`rootRatio`, from OTEL_TRACES_SAMPLER), and drawn out
 * it runs with no span at all, costing one random number. Drawn in, the span is started as chosen
 * (CHOSEN_ROOT), so the ratio is not applied twice.
 *
 * Only a write runs inside its span's context (`scope`), so its outbox row stores the trace (and
 * the decision, recorded or not) for the workflow it starts. A read runs outside any context: it
 * writes no outbox row and starts no span of its own, its log lines carry the span's ids as
 * bindings (requestLogBindings), and entering a context is what switches the process's context
 * storage on, which on async_hooks costs every promise of every request while it is on
 * (integrations/tracing/context-manager.ts).
 */
export function startRequestSpan(c: Context<AppEnv>, rootRatio: number): RequestTrace | undefined {
  // Most requests carry no trace context: skip the propagator's walk over every header for them.
  const carried = requestHeader(c, 'traceparent') !== undefined;
  const read = READS.has(c.req.method);
  const rootRead = read && !carried;
  if (rootRead && rootRatio < 1 && !(Math.random() < rootRatio)) return undefined;
  const parent = carried ? propagation.extract(ROOT_CONTEXT, c.req.raw.headers, fromHeaders) : ROOT_CONTEXT;
  const options = { kind: SpanKind.SERVER, attributes: { 'http.request.method': c.req.method } };
  const span = tracer.startSpan(c.req.method, options, rootRead && rootRatio < 1 ? CHOSEN : parent);
  return { span, scope: read ? undefined : trace.setSpan(parent, span) };
}

/** The span's ids for the request's log lines, when it runs outside its context (a read). */
export function requestLogBindings(t: RequestTrace | undefined): { traceId: string; spanId: string } | undefined {
  if (!t || t.scope) return undefined;
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
    rest = t.scope ? context.with(t.scope, answer) : answer();
  } catch (err) {
    endRequestSpan(c, t.span);
    throw err;
  }
  if (rest instanceof Promise) return rest.finally(() => endRequestSpan(c, t.span));
  endRequestSpan(c, t.span);
  return undefined;
}

function endRequestSpan(c: Context<AppEnv>, span: Span) {
  // An unsampled span records nothing: naming it would only cost the request time.
  if (span.isRecording()) {
    const route = routeTemplate(c);
    span.updateName(`${c.req.method} ${route}`);
    span.setAttributes({ 'http.route': route, 'http.response.status_code': c.res.status });
    if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
