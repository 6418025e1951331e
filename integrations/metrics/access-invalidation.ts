import { Counter, Gauge, Histogram } from 'prom-client';
import { metricsRegistry } from './registry';

// How long a writer of access waited for every live API node to acknowledge its change notice
// (docs/access.md "Caching across nodes"), and which nodes it stopped waiting for.

const waits = new Histogram({
  name: 'platform_access_invalidation_wait_seconds',
  help: 'From sending an access change notice to every live API node having acknowledged it (outcome acknowledged), or to giving up at access.invalidation-wait-ms (outcome timed-out).',
  labelNames: ['outcome'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
  registers: [metricsRegistry],
});

const timeouts = new Counter({
  name: 'platform_access_invalidation_node_timeouts_total',
  help: 'Live API nodes that had not acknowledged an access change notice within access.invalidation-wait-ms (each has stopped serving from its cache by then).',
  registers: [metricsRegistry],
});

let serving: (() => boolean) | undefined;
new Gauge({
  name: 'platform_access_cache_serving',
  help: "1 while this node answers from its access cache (its heartbeat came back through LISTEN in time), 0 while every request reads PostgreSQL.",
  registers: [metricsRegistry],
  collect() {
    this.reset();
    if (serving) this.set(serving() ? 1 : 0);
  },
});

export function observeInvalidationWait(seconds: number, nodesTimedOut: number) {
  waits.observe({ outcome: nodesTimedOut > 0 ? 'timed-out' : 'acknowledged' }, seconds);
  if (nodesTimedOut > 0) timeouts.inc(nodesTimedOut);
}

/** The node's cache state, read at scrape time. */
export function measureAccessCacheServing(read: () => boolean) {
  serving = read;
}
