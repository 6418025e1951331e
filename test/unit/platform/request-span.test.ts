// runTraced (api/middleware/tracing.ts): a request that answers synchronously ends its span at
// once and stays synchronous, so a sampled cached read takes the same path through Hono and the
// Node adapter as an unsampled one; an asynchronous one ends its span when it settles; either way
// the span carries the route template and the status, and a 5xx marks it an error.
import { SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Hono, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import { runTraced } from '../../../api/middleware/tracing';
import type { AppEnv } from '../../../api/env';

const memory = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] }).getTracer('test');

function tracedApp() {
  const seen: { returned: unknown } = { returned: null };
  const app = new Hono<AppEnv>();
  app.onError((err, c) => c.text(err.message, 500));
  app.use('*', ((c, next) => {
    const rest = () => {
      const r: unknown = next();
      return r instanceof Promise ? r.then(() => undefined) : undefined;
    };
    seen.returned = runTraced(c, { span: tracer.startSpan(c.req.method), scope: undefined }, rest);
    return seen.returned;
  }) as MiddlewareHandler<AppEnv>);
  app.get('/sync/:id', (c) => c.json({ ok: true }));
  app.get('/async/:id', async (c) => {
    await new Promise((r) => setTimeout(r, 1));
    return c.json({ ok: true }, 201);
  });
  app.get('/boom/:id', () => {
    throw new Error('boom');
  });
  return { app, seen };
}

const lastSpan = () => memory.getFinishedSpans().at(-1)!;

describe('the request span', () => {
  it('ends at once on a synchronous answer, which stays synchronous', () => {
    const { app, seen } = tracedApp();
    const res = app.fetch(new Request('http://x/sync/1'));
    expect(res).toBeInstanceOf(Response);
    expect(seen.returned).toBeUndefined();
    expect(lastSpan()).toMatchObject({ name: 'GET /sync/:id', attributes: { 'http.route': '/sync/:id', 'http.response.status_code': 200 }, ended: true });
    expect(lastSpan().status.code).toBe(SpanStatusCode.UNSET);
  });

  it('ends when an asynchronous answer settles', async () => {
    const { app, seen } = tracedApp();
    const before = memory.getFinishedSpans().length;
    const pending = app.fetch(new Request('http://x/async/1'));
    expect(seen.returned).toBeInstanceOf(Promise);
    expect(memory.getFinishedSpans()).toHaveLength(before);
    expect((await pending).status).toBe(201);
    expect(lastSpan()).toMatchObject({ name: 'GET /async/:id', attributes: { 'http.response.status_code': 201 } });
  });

  it('marks a failed request an error, synchronously too', () => {
    const { app } = tracedApp();
    const res = app.fetch(new Request('http://x/boom/1')) as Response;
    expect(res.status).toBe(500);
    expect(lastSpan()).toMatchObject({ name: 'GET /boom/:id', attributes: { 'http.response.status_code': 500 }, status: { code: SpanStatusCode.ERROR } });
  });
});
