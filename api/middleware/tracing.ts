import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span, type TextMapGetter } from '@opentelemetry/api';
import type { Context } from 'hono';
import { CHOSEN_ROOT } from '../../integrations/tracing/sampler';
import type { AppEnv } from '../env';
import { routeTemplate } from './route-template';

const tracer = trace.getTracer('platform-api');

const fromHeaders: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/** Methods whose routes never write an outbox row: no process they start needs the trace decision. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CHOSEN = ROOT_CONTEXT.setValue(CHOSEN_ROOT, true);

/** Runs a request outside any span. */
const untraced = (answer: () => Promise<void>) => answer();

/**
 * Runs the request inside its SERVER span, continuing the caller's W3C `traceparent` when it
 * sends one. The span is named by the route template, never the raw path (paths carry ids and
 * link tokens). Everything the request does (outbox rows, log lines) runs inside it.
 *
 * One case is decided before any span exists: a read that carries no trace context. It starts no
 * process, so nothing downstream needs a decision from it, and the sampler's ratio is drawn here
 * (`rootRatio`, from OTEL_TRACES_SAMPLER): drawn out, it runs with no span at all, costing one
 * random number instead of a span, its ids and an async context frame, which were what tracing
 * cost a cached read at low sampling rates (bench/access-observability.bench.ts). Drawn in, the
 * span is started as chosen (CHOSEN_ROOT), so the ratio is not applied twice. Its log lines then
 * carry the request id only: no trace exists to look up. Writes always get a span, recorded or
 * not, so the outbox row carries the decision to the workflow.
 */
export function requestSpanRunner(c: Context<AppEnv>, rootRatio: number): (answer: () => Promise<void>) => Promise<void> {
  // Most requests carry no trace context: skip the propagator's walk over every header for them.
  const carried = c.req.raw.headers.has('traceparent');
  const rootRead = !carried && READS.has(c.req.method);
  if (rootRead && rootRatio < 1 && !(Math.random() < rootRatio)) return untraced;
  const parent = carried ? propagation.extract(ROOT_CONTEXT, c.req.raw.headers, fromHeaders) : ROOT_CONTEXT;
  const options = { kind: SpanKind.SERVER, attributes: { 'http.request.method': c.req.method } };
  const span = tracer.startSpan(c.req.method, options, rootRead && rootRatio < 1 ? CHOSEN : parent);
  return (answer) => runInSpan(c, parent, span, answer);
}

async function runInSpan(c: Context<AppEnv>, parent: typeof ROOT_CONTEXT, span: Span, answer: () => Promise<void>) {
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
