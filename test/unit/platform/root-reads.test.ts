// The root-read recorder (integrations/tracing/root-reads.ts): a root read drawn into the sample is
// exported as the API's SERVER span for it, with random ids, on the OTEL_BSP_* batch schedule;
// a full queue drops and says so; an export that never answers is given up.
import { diag, SpanKind, SpanStatusCode, TraceFlags, type DiagLogger } from '@opentelemetry/api';
import { ExportResultCode, hrTimeToMilliseconds, type ExportResult } from '@opentelemetry/core';
import { InMemorySpanExporter, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RootReadRecorder, type BatchLimits } from '../../../integrations/tracing/root-reads';

const RESOURCE = { 'service.name': 'root-read-test', 'telemetry.sdk.language': 'nodejs' };
const SCOPE = { name: 'platform-api' };
const limits = (l: Partial<BatchLimits> = {}): BatchLimits => ({ maxQueueSize: 2048, maxExportBatchSize: 512, scheduledDelayMillis: 60_000, exportTimeoutMillis: 30_000, ...l });

/** An exporter that holds every export until told to answer. */
class HeldExporter implements SpanExporter {
  readonly held: { spans: ReadableSpan[]; done: (r: ExportResult) => void }[] = [];
  exported = 0;
  export(spans: ReadableSpan[], done: (r: ExportResult) => void) {
    this.held.push({ spans, done });
  }
  release() {
    for (const h of this.held.splice(0)) {
      this.exported += h.spans.length;
      h.done({ code: ExportResultCode.SUCCESS });
    }
  }
  async shutdown() {}
}

// Generous: the delays are short, but a loaded machine runs timers late.
const WAIT = { timeout: 10_000 };
const read = (recorder: RootReadRecorder, route = '/api/my-capabilities', status = 200) => recorder.start().end('GET', route, status);

afterEach(() => diag.disable());

describe('root reads', () => {
  it('are exported as the SERVER span of a read: named by route, its three attributes, no parent, sampled, timed on the wall clock', async () => {
    const memory = new InMemorySpanExporter();
    const recorder = new RootReadRecorder(memory, RESOURCE, SCOPE, limits());
    const before = Date.now();
    const ok = recorder.start();
    const failed = recorder.start();
    ok.end('GET', '/api/documents/:id', 200);
    failed.end('HEAD', '/api/forms', 503);
    const after = Date.now();
    await recorder.forceFlush();
    const [span, error] = memory.getFinishedSpans();
    expect(span).toMatchObject({
      name: 'GET /api/documents/:id',
      kind: SpanKind.SERVER,
      parentSpanId: undefined,
      status: { code: SpanStatusCode.UNSET },
      attributes: { 'http.request.method': 'GET', 'http.route': '/api/documents/:id', 'http.response.status_code': 200 },
      links: [],
      events: [],
      resource: { attributes: RESOURCE },
      instrumentationLibrary: SCOPE,
      ended: true,
    });
    expect(span!.spanContext()).toEqual({ traceId: ok.traceId, spanId: ok.spanId, traceFlags: TraceFlags.SAMPLED });
    expect(ok.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(ok.spanId).toMatch(/^[0-9a-f]{16}$/);
    const [start, end] = [hrTimeToMilliseconds(span!.startTime), hrTimeToMilliseconds(span!.endTime)];
    expect(start).toBeGreaterThanOrEqual(before - 1);
    expect(end).toBeLessThanOrEqual(after + 1);
    expect(end).toBeGreaterThanOrEqual(start);
    expect(hrTimeToMilliseconds(span!.duration)).toBeCloseTo(end - start, 3);
    expect(span!.duration[1]).toBeLessThan(1e9);
    expect(error).toMatchObject({ name: 'HEAD /api/forms', status: { code: SpanStatusCode.ERROR }, attributes: { 'http.response.status_code': 503 } });
  });

  it('draw their ids at random, none twice, across many refills of the pool', () => {
    const recorder = new RootReadRecorder(new InMemorySpanExporter(), RESOURCE, SCOPE, limits());
    const reads = Array.from({ length: 1000 }, () => recorder.start());
    expect(new Set(reads.map((r) => r.traceId)).size).toBe(1000);
    expect(new Set(reads.map((r) => r.spanId)).size).toBe(1000);
    expect(reads.every((r) => /^[0-9a-f]{32}$/.test(r.traceId) && /^[0-9a-f]{16}$/.test(r.spanId))).toBe(true);
  });

  it('export a full batch at once, one export at a time, and the rest after the scheduled delay', async () => {
    const held = new HeldExporter();
    const recorder = new RootReadRecorder(held, RESOURCE, SCOPE, limits({ maxExportBatchSize: 3, scheduledDelayMillis: 30 }));
    for (let i = 0; i < 3; i++) read(recorder);
    expect(held.held.map((h) => h.spans.length)).toEqual([3]);
    for (let i = 0; i < 4; i++) read(recorder);
    // The first export has not answered: the next full batch waits for it.
    expect(held.held).toHaveLength(1);
    held.release();
    await vi.waitFor(() => expect(held.held.map((h) => h.spans.length)).toEqual([3]), WAIT);
    held.release();
    // One read is left, below a batch: it goes out after the scheduled delay.
    await vi.waitFor(() => expect(held.held.map((h) => h.spans.length)).toEqual([1]), WAIT);
    held.release();
  });

  it('drop reads beyond maxQueueSize while an export is out, and warn with the count at the next read kept', async () => {
    const warnings: string[] = [];
    diag.setLogger({ warn: (m: string) => warnings.push(m), error: () => {}, info: () => {}, debug: () => {}, verbose: () => {} } as DiagLogger);
    const held = new HeldExporter();
    const recorder = new RootReadRecorder(held, RESOURCE, SCOPE, limits({ maxQueueSize: 4, maxExportBatchSize: 2 }));
    for (let i = 0; i < 2; i++) read(recorder);
    expect(held.held).toHaveLength(1);
    for (let i = 0; i < 7; i++) read(recorder);
    expect(warnings).toEqual([]);
    held.release();
    await vi.waitFor(() => expect(held.held).toHaveLength(1), WAIT);
    read(recorder);
    expect(warnings).toEqual(['Dropped 3 root read spans because maxQueueSize was reached']);
    const flushed = recorder.forceFlush();
    held.release();
    await flushed;
    held.release();
    await recorder.forceFlush();
    // Kept: 2 + 4 of the 9, then the one read after the drop.
    expect(held.held).toEqual([]);
    expect(held.exported).toBe(7);
  });

  it('give up an export that does not answer within exportTimeoutMillis', async () => {
    const held = new HeldExporter();
    const recorder = new RootReadRecorder(held, RESOURCE, SCOPE, limits({ exportTimeoutMillis: 20 }));
    read(recorder);
    await expect(recorder.forceFlush()).rejects.toThrow('root read export timed out');
  });

  it('are exported on shutdown, and none is recorded after it', async () => {
    const memory = new InMemorySpanExporter();
    const recorder = new RootReadRecorder(memory, RESOURCE, SCOPE, limits());
    read(recorder, '/api/forms');
    const late = recorder.start();
    await recorder.shutdown();
    late.end('GET', '/api/late', 200);
    await recorder.forceFlush();
    expect(memory.getFinishedSpans().map((s) => s.name)).toEqual(['GET /api/forms']);
  });
});
