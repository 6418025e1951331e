import { diag, type Attributes } from '@opentelemetry/api';
import { ExportResultCode, getEnv, globalErrorHandler, type ExportResult } from '@opentelemetry/core';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { randomFillSync } from 'node:crypto';
import { ROOT_READ_FIELDS, rootReadSpans } from './span-records.mjs';

/** The API's tracer: its request spans, root reads included, carry this scope. */
export const API_TRACER = 'platform-api';

/** What a batch of root reads crosses to the exporter as (span-records.mjs makes the spans). */
export interface RootReadBatch {
  /** Wall-clock milliseconds at `performance.now()` 0, taken when the batch is made. */
  origin: number;
  resource: Attributes;
  scope: { name: string; version?: string };
  /** ROOT_READ_FIELDS values a read: trace id, span id, start and end (`performance.now()`), method, route, status. */
  records: (string | number)[];
}

/** An exporter that takes root reads as they are kept (ThreadedOtlpExporter); any other gets the spans made of them. */
interface RootReadExporter extends SpanExporter {
  exportRootReads(batch: RootReadBatch, done: (result: ExportResult) => void): void;
}

/** The batch processor's standard OTEL_BSP_* settings, which this queue honours as the SDK's does. */
export interface BatchLimits {
  maxQueueSize: number;
  maxExportBatchSize: number;
  scheduledDelayMillis: number;
  exportTimeoutMillis: number;
}

export function batchLimitsFromEnv(): BatchLimits {
  const env = getEnv();
  const maxQueueSize = env.OTEL_BSP_MAX_QUEUE_SIZE;
  return {
    maxQueueSize,
    maxExportBatchSize: Math.min(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, maxQueueSize),
    scheduledDelayMillis: env.OTEL_BSP_SCHEDULE_DELAY,
    exportTimeoutMillis: env.OTEL_BSP_EXPORT_TIMEOUT,
  };
}

/** A root read drawn into the sample, from its start to its end. */
export class RootRead {
  constructor(
    private readonly recorder: RootReadRecorder,
    readonly traceId: string,
    readonly spanId: string,
    readonly start: number,
  ) {}

  end(method: string, route: string, status: number): void {
    this.recorder.end(this, method, route, status);
  }
}

const ID_CHARS = 48;
const POOL_BYTES = 64 * (ID_CHARS / 2);
const ZERO_SPAN_ID = '0'.repeat(16);
const ZERO_TRACE_ID = '0'.repeat(32);

/**
 * Records the API's root reads: GET, HEAD and OPTIONS requests that carry no trace context and
 * that the head sampler drew into the sample (api/middleware/tracing.ts). Such a read is a trace
 * of one span: it has no parent, starts no process (it writes no outbox row) and runs no span of
 * its own. So its SERVER span is kept as seven values (ids, start, end, method, route, status)
 * rather than as an SDK `Span`, and becomes a ReadableSpan only when it is exported (in the export
 * thread, for the OTLP exporter). Writes, reads that continue a caller's trace, and everything the
 * worker records stay SDK spans.
 *
 * Why: on the cheapest cached read (about 30 µs), an SDK span recorded for one read in ten cost the
 * node 10-17% of its answers per CPU-second (bench/access-observability.bench.ts): the span object
 * and its processor, the batch of live spans until export, and their serialisation on the main
 * thread. What the SDK would add to these spans and this recorder does not: span processors other
 * than the exporter's batch (the platform registers none) and span limits (a root read has three
 * attributes, no events, no links).
 *
 * Ids are random (crypto), drawn from a pool refilled every 64 reads. The queue and its batches
 * follow OTEL_BSP_* as the SDK's batch processor does: at most maxQueueSize reads waiting (more are
 * dropped and counted in a warning), a batch exported at maxExportBatchSize or after
 * scheduledDelayMillis, one export at a time, each given up after exportTimeoutMillis.
 */
export class RootReadRecorder {
  private queue: (string | number)[] = [];
  private exporting = false;
  private timer: NodeJS.Timeout | undefined;
  private dropped = 0;
  private stopped = false;
  private ids = '';
  private idAt = 0;

  constructor(
    private readonly exporter: SpanExporter,
    private readonly resource: Attributes,
    private readonly scope: RootReadBatch['scope'],
    private readonly limits: BatchLimits = batchLimitsFromEnv(),
  ) {}

  start(): RootRead {
    if (this.idAt + ID_CHARS > this.ids.length) {
      this.ids = randomFillSync(Buffer.allocUnsafe(POOL_BYTES)).toString('hex');
      this.idAt = 0;
    }
    const at = this.idAt;
    this.idAt += ID_CHARS;
    const traceId = this.ids.slice(at, at + 32);
    const spanId = this.ids.slice(at + 32, at + ID_CHARS);
    // All zeros is not a valid id (W3C trace context); one in 2^64 draws.
    if (traceId === ZERO_TRACE_ID || spanId === ZERO_SPAN_ID) return this.start();
    return new RootRead(this, traceId, spanId, performance.now());
  }

  end(read: RootRead, method: string, route: string, status: number): void {
    if (this.stopped) return;
    if (this.queue.length >= this.limits.maxQueueSize * ROOT_READ_FIELDS) {
      this.dropped++;
      return;
    }
    if (this.dropped > 0) {
      diag.warn(`Dropped ${this.dropped} root read spans because maxQueueSize was reached`);
      this.dropped = 0;
    }
    this.queue.push(read.traceId, read.spanId, read.start, performance.now(), method, route, status);
    this.schedule();
  }

  /** Exports every read that has ended. */
  async forceFlush(): Promise<void> {
    this.clearTimer();
    const batches = Math.ceil(this.queue.length / (this.limits.maxExportBatchSize * ROOT_READ_FIELDS));
    await Promise.all(Array.from({ length: batches }, () => this.exportOne()));
  }

  /** Exports what has ended and records nothing more (the exporter itself is shut down by the provider). */
  async shutdown(): Promise<void> {
    this.stopped = true;
    await this.forceFlush();
  }

  private schedule(): void {
    if (this.exporting) return;
    if (this.queue.length >= this.limits.maxExportBatchSize * ROOT_READ_FIELDS) return this.exportInTurn();
    if (this.timer) return;
    this.timer = setTimeout(() => this.exportInTurn(), this.limits.scheduledDelayMillis);
    this.timer.unref();
  }

  private exportInTurn(): void {
    this.exporting = true;
    this.exportOne()
      .catch((err: unknown) => globalErrorHandler(err as Error))
      .finally(() => {
        this.exporting = false;
        if (this.queue.length > 0) this.schedule();
      });
  }

  private exportOne(): Promise<void> {
    this.clearTimer();
    if (this.queue.length === 0) return Promise.resolve();
    const size = this.limits.maxExportBatchSize * ROOT_READ_FIELDS;
    let records = this.queue;
    if (records.length <= size) this.queue = [];
    else records = this.queue.splice(0, size);
    const batch: RootReadBatch = { origin: Date.now() - performance.now(), resource: this.resource, scope: this.scope, records };
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('root read export timed out')), this.limits.exportTimeoutMillis);
      const done = (result: ExportResult) => {
        clearTimeout(timer);
        if (result.code === ExportResultCode.SUCCESS) resolve();
        else reject(result.error ?? new Error('root read export failed'));
      };
      const exporter = this.exporter as Partial<RootReadExporter>;
      if (exporter.exportRootReads) exporter.exportRootReads(batch, done);
      else this.exporter.export(rootReadSpans(batch), done);
    });
  }

  private clearTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
