import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';

/**
 * Runs `fn` as a continuation of a stored W3C trace context (an outbox row's), or plainly without
 * one. Only the API package: with tracing off its propagator is a no-op and the SDK is never loaded.
 */
export function withTraceContext<T>(carrier: Record<string, string> | null | undefined, fn: () => T): T {
  if (!carrier) return fn();
  return context.with(propagation.extract(ROOT_CONTEXT, carrier), fn);
}
