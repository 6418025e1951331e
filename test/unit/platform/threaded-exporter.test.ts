// The OTLP exporter in its worker thread (integrations/tracing/threaded-exporter.ts): what reaches
// the collector is byte for byte what the SDK's own exporter sends for the same spans; failures
// are the exporter's; a thread that dies is replaced; the process's tracing exports through it.
// Root reads (root-reads.ts) reach the collector as the SDK's spans for the same reads would.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { ExportResultCode, TraceState, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_TRACER, type RootReadBatch } from '../../../integrations/tracing/root-reads';
import { rootReadSpans } from '../../../integrations/tracing/span-records.mjs';
import { ThreadedOtlpExporter } from '../../../integrations/tracing/threaded-exporter';
import { startTracing } from '../../../integrations/tracing/tracing';

let server: Server;
let base: string;
let bodies: unknown[] = [];
let status = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      bodies.push({ path: req.url, contentType: req.headers['content-type'], body: JSON.parse(body) });
      res.writeHead(status, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  bodies = [];
  status = 200;
});

const exportWith = (exporter: SpanExporter, spans: ReadableSpan[]) => new Promise<ExportResult>((resolve) => exporter.export(spans, resolve));

/** Spans with everything the OTLP encoding carries: a parent, a link, an event, trace state, an error status. */
function sampleSpans(): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: new Resource({ 'service.name': 'export-thread-test', 'deployment.environment': 'test' }), spanProcessors: [new SimpleSpanProcessor(memory)] });
  const tracer = provider.getTracer('platform-api', '1.2.3');
  const linked = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.SAMPLED, traceState: new TraceState('vendor=linked') };
  const parentContext = trace.setSpanContext(ROOT_CONTEXT, {
    traceId: 'c'.repeat(32),
    spanId: 'd'.repeat(16),
    traceFlags: TraceFlags.SAMPLED,
    traceState: new TraceState('vendor=parent'),
    isRemote: true,
  });
  const root = tracer.startSpan('GET /api/my-capabilities', { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'GET', 'http.response.status_code': 500, retried: false, tags: ['a', 'b'] }, links: [{ context: linked, attributes: { why: 'batch' } }] }, parentContext);
  root.addEvent('exception', { 'exception.message': 'boom' });
  root.setStatus({ code: SpanStatusCode.ERROR, message: 'failed' });
  const child = tracer.startSpan('db.query', { kind: SpanKind.CLIENT }, trace.setSpan(parentContext, root));
  child.end();
  root.end();
  return memory.getFinishedSpans();
}

describe('the span exporter in a worker thread', () => {
  it('sends the collector what the SDK exporter sends for the same spans', async () => {
    const spans = sampleSpans();
    expect(spans).toHaveLength(2);
    const direct = new OTLPTraceExporter({ url: `${base}/v1/traces` });
    const threaded = new ThreadedOtlpExporter(`${base}/v1/traces`);
    try {
      expect(await exportWith(direct, spans)).toEqual({ code: ExportResultCode.SUCCESS });
      expect(await exportWith(threaded, spans)).toEqual({ code: ExportResultCode.SUCCESS });
    } finally {
      await direct.shutdown();
      await threaded.shutdown();
    }
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
    const sent = bodies[1] as { path: string; contentType: string; body: { resourceSpans: { resource: unknown; scopeSpans: { scope: unknown; spans: Record<string, unknown>[] }[] }[] } };
    expect(sent).toMatchObject({ path: '/v1/traces', contentType: 'application/json' });
    // What the comparison stands on: the fields are there, not merely equally absent.
    const [resourceSpans] = sent.body.resourceSpans;
    expect(resourceSpans!.resource).toMatchObject({ attributes: expect.arrayContaining([{ key: 'service.name', value: { stringValue: 'export-thread-test' } }]) });
    expect(resourceSpans!.scopeSpans[0]!.scope).toEqual({ name: 'platform-api', version: '1.2.3' });
    const server = resourceSpans!.scopeSpans[0]!.spans.find((s) => s.name === 'GET /api/my-capabilities')!;
    expect(server).toMatchObject({
      traceId: 'c'.repeat(32),
      parentSpanId: 'd'.repeat(16),
      traceState: 'vendor=parent',
      kind: 2,
      status: { code: SpanStatusCode.ERROR, message: 'failed' },
      events: [{ name: 'exception', attributes: [{ key: 'exception.message', value: { stringValue: 'boom' } }] }],
      links: [{ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceState: 'vendor=linked', attributes: [{ key: 'why', value: { stringValue: 'batch' } }] }],
    });
    expect(server.attributes).toEqual(expect.arrayContaining([{ key: 'tags', value: { arrayValue: { values: [{ stringValue: 'a' }, { stringValue: 'b' }] } } }]));
  });

  it('sends root reads as the SDK exporter sends the same SERVER spans recorded by the SDK', async () => {
    const memory = new InMemorySpanExporter();
    // The SDK draws a span's id first, then (for a root span) its trace id.
    const ids = ['2'.repeat(16), '1'.repeat(32), '4'.repeat(16), '3'.repeat(32)];
    const idGenerator = { generateTraceId: () => ids.shift()!, generateSpanId: () => ids.shift()! };
    const provider = new BasicTracerProvider({ resource: new Resource({ 'service.name': 'export-thread-test' }), spanProcessors: [new SimpleSpanProcessor(memory)], idGenerator });
    const origin = 1_700_000_000_000;
    const reads = [
      ['1'.repeat(32), '2'.repeat(16), 1234.5, 1240.25, 'GET', '/api/my-capabilities', 200],
      ['3'.repeat(32), '4'.repeat(16), 2000, 2003.125, 'GET', '/api/forms/:id', 503],
    ] as const;
    const tracer = provider.getTracer(API_TRACER);
    for (const [, , start, end, method, route, status] of reads) {
      const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method }, startTime: origin + start }, ROOT_CONTEXT);
      span.updateName(`${method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end(origin + end);
    }
    const sdkSpans = memory.getFinishedSpans();
    expect(sdkSpans.map((s) => s.spanContext().spanId)).toEqual(['2'.repeat(16), '4'.repeat(16)]);
    const batch: RootReadBatch = { origin, resource: sdkSpans[0]!.resource.attributes, scope: { name: API_TRACER }, records: reads.flat() };
    const direct = new OTLPTraceExporter({ url: `${base}/v1/traces` });
    const threaded = new ThreadedOtlpExporter(`${base}/v1/traces`);
    try {
      expect(await exportWith(direct, sdkSpans)).toEqual({ code: ExportResultCode.SUCCESS });
      expect(await new Promise<ExportResult>((resolve) => threaded.exportRootReads(batch, resolve))).toEqual({ code: ExportResultCode.SUCCESS });
      // Without the thread (another exporter), the spans are made on the main thread by the same code.
      expect(await exportWith(direct, rootReadSpans(batch))).toEqual({ code: ExportResultCode.SUCCESS });
    } finally {
      await direct.shutdown();
      await threaded.shutdown();
    }
    expect(bodies).toHaveLength(3);
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
    const spans = (bodies[0] as { body: { resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[] } }).body.resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(spans[1]).toMatchObject({
      traceId: '3'.repeat(32),
      spanId: '4'.repeat(16),
      name: 'GET /api/forms/:id',
      kind: 2,
      startTimeUnixNano: '1700000002000000000',
      endTimeUnixNano: '1700000002003125000',
      status: { code: SpanStatusCode.ERROR },
    });
    expect(spans[0]!.attributes).toEqual([
      { key: 'http.request.method', value: { stringValue: 'GET' } },
      { key: 'http.route', value: { stringValue: '/api/my-capabilities' } },
      { key: 'http.response.status_code', value: { intValue: 200 } },
    ]);
  });

  it("fails an export the collector refuses with the exporter's own error, and fails fast once shut down", async () => {
    status = 400;
    const threaded = new ThreadedOtlpExporter(`${base}/v1/traces`);
    try {
      const refused = await exportWith(threaded, sampleSpans());
      expect(refused.code).toBe(ExportResultCode.FAILED);
      expect(refused.error?.message).toMatch(/400|Bad Request/);
    } finally {
      await threaded.shutdown();
    }
    expect(await exportWith(threaded, sampleSpans())).toMatchObject({ code: ExportResultCode.FAILED, error: { message: 'exporter is shut down' } });
    expect(bodies).toHaveLength(1);
  });

  it('starts another thread when its thread dies', async () => {
    const threaded = new ThreadedOtlpExporter(`${base}/v1/traces`);
    try {
      const first = Reflect.get(threaded, 'worker') as Worker;
      await first.terminate();
      expect(await exportWith(threaded, sampleSpans())).toEqual({ code: ExportResultCode.SUCCESS });
      expect(Reflect.get(threaded, 'worker')).not.toBe(first);
      expect(bodies).toHaveLength(1);
    } finally {
      await threaded.shutdown();
    }
  });

  it("is the process's exporter when tracing has an OTLP endpoint", async () => {
    const tracing = startTracing({ serviceName: 'export-thread-process', endpoint: `${base}/` })!;
    try {
      trace.getTracer('test').startSpan('one span').end();
      tracing.rootReads.start().end('GET', '/api/forms', 200);
      await tracing.flush();
      // One batch from the SDK's processor, one of root reads; both carry the provider's resource.
      expect(bodies).toHaveLength(2);
      const [sdk, reads] = ['"one span"', '"GET /api/forms"'].map((name) => JSON.stringify(bodies.find((b) => JSON.stringify(b).includes(name))));
      for (const body of [sdk, reads]) {
        expect(body).toContain('export-thread-process');
        expect(body).toContain('telemetry.sdk.language');
      }
    } finally {
      await tracing.shutdown();
    }
  });
});
