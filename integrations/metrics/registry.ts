import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The process's one registry: every `platform_*` family registers here, and the metrics listener
 * (workers/metrics-server.ts) serves it. Not prom-client's global registry, so a library that
 * registers on the global one cannot add unbounded families to our scrape.
 */
export const metricsRegistry = new Registry();

// Node's own figures (CPU, memory, event-loop lag, GC), named platform_process_* / platform_nodejs_*.
collectDefaultMetrics({ register: metricsRegistry, prefix: 'platform_' });
