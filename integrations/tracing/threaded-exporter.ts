import type { HrTime } from '@opentelemetry/api';
import { diag } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { Worker } from 'node:worker_threads';
import type { RootReadBatch } from './root-reads';

/**
 * The OTLP/HTTP span exporter, run in a worker thread (export-worker.mjs runs the SDK's own
 * OTLPTraceExporter there); the batch processor stays on the main thread and hands it the spans.
 *
 * Why a thread: the exporter's HTTP client runs through the same Node code as the API's server
 * (streams, events, the HTTP outgoing message, sockets) with objects of other shapes, and V8
 * compiles the main thread's hot request path for the shapes it has seen. One export every five
 * seconds was enough to make that path polymorphic for good: with 1% of requests sampled, the
 * cached guarded read lost 7% of its answers per CPU-second to an exporter that exported about
 * fifty spans a second (bench/access-observability.bench.ts). In a worker the exporter has its
 * own isolate, so nothing it runs reaches the request path's type feedback; what crosses is one
 * JSON string of plain span records per batch. JSON holds every attribute value OpenTelemetry
 * allows but two, which arrive as null: a non-finite number (the OTLP JSON the exporter posts could
 * not carry it either) and undefined inside an array (OTLP encodes both as an empty value).
 */
export class ThreadedOtlpExporter implements SpanExporter {
  private worker: Worker | undefined;
  private seq = 0;
  private readonly pending = new Map<number, (reply: Reply) => void>();
  private stopped = false;

  /** Starts the thread at once, so its start-up (loading the exporter) is not paid by the first export, mid-traffic. */
  constructor(private readonly url: string) {
    this.started();
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.send('export', () => JSON.stringify(transferBatch(spans)), done);
  }

  /** Root reads recorded without an SDK span (root-reads.ts), exported as the spans span-records.mjs makes of them. */
  exportRootReads(batch: RootReadBatch, done: (result: ExportResult) => void): void {
    this.send('export-root-reads', () => JSON.stringify(batch), done);
  }

  async forceFlush(): Promise<void> {
    if (this.worker) await this.call({ type: 'flush' });
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const worker = this.worker;
    if (!worker) return;
    await this.call({ type: 'shutdown' }).catch((err: Error) => diag.error(`span export thread: ${err.message}`));
    this.worker = undefined;
    await worker.terminate();
  }

  private send(type: 'export' | 'export-root-reads', batch: () => string, done: (result: ExportResult) => void): void {
    if (this.stopped) return done({ code: ExportResultCode.FAILED, error: new Error('exporter is shut down') });
    this.call({ type, batch: batch() }).then(
      (reply) => done(reply.error === undefined ? { code: ExportResultCode.SUCCESS } : { code: ExportResultCode.FAILED, error: new Error(reply.error) }),
      (err: Error) => done({ code: ExportResultCode.FAILED, error: err }),
    );
  }

  private call(message: Request): Promise<Reply> {
    const worker = this.started();
    const id = ++this.seq;
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, (reply) => (reply.failed ? reject(new Error(reply.failed)) : resolve(reply)));
      // Held open only while an answer is owed: an idle exporter never keeps the process alive.
      worker.ref();
      worker.postMessage({ ...message, id });
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./export-worker.mjs', import.meta.url), { workerData: { url: this.url } });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const settle = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      settle?.(reply);
    });
    // A thread that died fails what it owed; the next export starts another.
    const lost = (why: string) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, settle] of this.pending) settle({ id, failed: why });
      this.pending.clear();
    };
    worker.on('error', (err) => lost(`span export thread failed: ${err.message}`));
    worker.on('exit', (code) => lost(`span export thread exited ${code}`));
    this.worker = worker;
    return worker;
  }
}

/** A batch crosses as one JSON string: cloning one string costs a fraction of cloning the objects it holds (a structured clone of the records took an eighth of the main thread with every request sampled). */
type Request = { type: 'export' | 'export-root-reads'; batch: string } | { type: 'flush' } | { type: 'shutdown' };

interface Reply {
  id: number;
  /** The exporter's own error, for an export it failed. */
  error?: string;
  /** The call did not reach the exporter (the thread died). */
  failed?: string;
}

/** What span-records.mjs rebuilds ReadableSpans from: their resources and scopes once each, spans by index into them. */
export interface TransferBatch {
  resources: ReadableSpan['resource']['attributes'][];
  scopes: { name: string; version?: string; schemaUrl?: string }[];
  spans: TransferSpan[];
}

/** One span as plain data: no methods, no class instances. */
export interface TransferSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: string;
  parentSpanId?: string;
  startTime: HrTime;
  endTime: HrTime;
  duration: HrTime;
  status: { code: number; message?: string };
  attributes: ReadableSpan['attributes'];
  links: { traceId: string; spanId: string; traceFlags: number; traceState?: string; attributes?: ReadableSpan['attributes']; droppedAttributesCount?: number }[];
  events: ReadableSpan['events'];
  /** Index into the batch's resources. */
  resource: number;
  /** Index into the batch's scopes. */
  scope: number;
  droppedAttributesCount: number;
  droppedEventsCount: number;
  droppedLinksCount: number;
}

function transferBatch(spans: ReadableSpan[]): TransferBatch {
  const batch: TransferBatch = { resources: [], scopes: [], spans: [] };
  // Every span of a tracer shares its resource and scope objects: one entry per object.
  const resources = new Map<object, number>();
  const scopes = new Map<object, number>();
  const indexOf = <T>(seen: Map<object, number>, key: object, list: T[], value: () => T) => {
    let i = seen.get(key);
    if (i === undefined) seen.set(key, (i = list.push(value()) - 1));
    return i;
  };
  for (const span of spans) {
    const resource = indexOf(resources, span.resource, batch.resources, () => span.resource.attributes);
    const { name, version, schemaUrl } = span.instrumentationLibrary;
    const scope = indexOf(scopes, span.instrumentationLibrary, batch.scopes, () => ({ name, version, schemaUrl }));
    batch.spans.push(transferable(span, resource, scope));
  }
  return batch;
}

function transferable(span: ReadableSpan, resource: number, scope: number): TransferSpan {
  const ctx = span.spanContext();
  return {
    name: span.name,
    kind: span.kind,
    traceId: ctx.traceId,
    spanId: ctx.spanId,
    traceFlags: ctx.traceFlags,
    traceState: ctx.traceState?.serialize(),
    parentSpanId: span.parentSpanId,
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    status: { code: span.status.code, message: span.status.message },
    attributes: span.attributes,
    links: span.links.map((l) => ({
      traceId: l.context.traceId,
      spanId: l.context.spanId,
      traceFlags: l.context.traceFlags,
      traceState: l.context.traceState?.serialize(),
      attributes: l.attributes,
      droppedAttributesCount: l.droppedAttributesCount,
    })),
    events: span.events,
    resource,
    scope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}
