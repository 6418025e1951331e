import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ScopedContextManager } from './context-manager';
import { API_TRACER, RootReadRecorder } from './root-reads';
import { headSamplingFromEnv } from './sampler';
import { ThreadedOtlpExporter } from './threaded-exporter';

/** The process's tracing: Temporal's OpenTelemetry plugin exports workflow spans through the same processor. */
export interface Tracing {
  resource: Resource;
  spanProcessor: SpanProcessor;
  /** The probability that a request without a caller's trace context is recorded (OTEL_TRACES_SAMPLER). */
  rootRatio: number;
  /** Where the API records the root reads it draws into the sample (root-reads.ts), to the same exporter. */
  rootReads: RootReadRecorder;
  /** Exports what is buffered (tests read spans after it). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  serviceName: string;
  /** OTLP/HTTP base endpoint (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to `<endpoint>/v1/traces`. */
  endpoint?: string;
  /** Instead of OTLP: every span handed to this exporter as it ends (tests, with an in-memory exporter). */
  exporter?: SpanExporter;
}

let active: Tracing | undefined;

/**
 * Registers the global tracer provider, the W3C trace-context propagator and the async context
 * manager, once per process (`npm start` runs the API and the worker in one process: the first
 * caller names the service). Off (undefined) unless an endpoint or an exporter is given: with
 * tracing off nothing is registered, and every OpenTelemetry call in the code is a no-op.
 */
export function startTracing(o: TracingOptions): Tracing | undefined {
  if (active) return active;
  if (!o.endpoint && !o.exporter) return undefined;
  const resource = new Resource({ 'service.name': o.serviceName });
  const exporter = o.exporter ?? new ThreadedOtlpExporter(`${o.endpoint!.replace(/\/+$/, '')}/v1/traces`);
  const spanProcessor = o.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter);
  const sampling = headSamplingFromEnv();
  const provider = new NodeTracerProvider({ resource, sampler: sampling.sampler, spanProcessors: [spanProcessor] });
  // The provider's resource: the one given, merged with the SDK's (telemetry.sdk.*), as its spans carry it.
  const rootReads = new RootReadRecorder(exporter, provider.resource.attributes, { name: API_TRACER });
  // The SDK's manager keeps async_hooks on for good once any context is entered (Node < 24).
  provider.register({ contextManager: new ScopedContextManager() });
  active = {
    resource,
    spanProcessor,
    rootRatio: sampling.rootRatio,
    rootReads,
    flush: async () => {
      await rootReads.forceFlush();
      await provider.forceFlush();
    },
    shutdown: async () => {
      await rootReads.shutdown();
      await provider.shutdown();
    },
  };
  return active;
}

/** The process's tracing, when started. */
export const activeTracing = () => active;
