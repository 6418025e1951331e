import { Counter, Gauge, Histogram } from 'prom-client';
import { metricsRegistry } from './registry';

/** Queued rows per capability, as one cheap query reads them at scrape time. */
export interface OutboxBacklog {
  capability: string;
  queued: number;
  oldestAgeSeconds: number;
}

const dispatchLatency = new Histogram({
  name: 'platform_outbox_dispatch_latency_seconds',
  help: 'From the outbox row being written (its transaction) to its workflow start or signal being accepted by Temporal, by capability and verb.',
  labelNames: ['capability', 'verb'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [metricsRegistry],
});

const deliveryFailures = new Counter({
  name: 'platform_outbox_delivery_failures_total',
  help: 'Failed attempts to start a workflow or deliver a signal (each retried with backoff), by capability and verb.',
  labelNames: ['capability', 'verb'] as const,
  registers: [metricsRegistry],
});

const rowsFailed = new Counter({
  name: 'platform_outbox_rows_failed_total',
  help: 'Outbox rows that reached FAILED after their last attempt, by capability and verb.',
  labelNames: ['capability', 'verb'] as const,
  registers: [metricsRegistry],
});

let readBacklog: (() => Promise<OutboxBacklog[]>) | undefined;

const queued = new Gauge({
  name: 'platform_outbox_queued_rows',
  help: 'Outbox rows QUEUED (due or backing off), by capability; read from PostgreSQL at scrape time.',
  labelNames: ['capability'] as const,
  registers: [metricsRegistry],
  async collect() {
    await refreshBacklog();
  },
});

const oldestAge = new Gauge({
  name: 'platform_outbox_oldest_queued_age_seconds',
  help: 'Age of the oldest QUEUED outbox row, by capability; read from PostgreSQL at scrape time.',
  labelNames: ['capability'] as const,
  registers: [metricsRegistry],
  async collect() {
    await refreshBacklog();
  },
});

let pending: Promise<void> | undefined;

/** Both backlog gauges are collected side by side on a scrape: they share one query. */
function refreshBacklog() {
  pending ??= collectBacklog().finally(() => (pending = undefined));
  return pending;
}

async function collectBacklog() {
  if (!readBacklog) return;
  const rows = await readBacklog();
  queued.reset();
  oldestAge.reset();
  for (const row of rows) {
    queued.set({ capability: row.capability }, row.queued);
    oldestAge.set({ capability: row.capability }, row.oldestAgeSeconds);
  }
}

/** The processes that own a database (API and worker) register how the backlog is read. */
export function measureOutboxBacklog(read: () => Promise<OutboxBacklog[]>) {
  readBacklog = read;
}

export function observeOutboxDelivered(row: { capability: string; verb: string; createdAt: Date }) {
  dispatchLatency.observe({ capability: row.capability, verb: row.verb }, Math.max(0, (Date.now() - row.createdAt.getTime()) / 1000));
}

export function countOutboxFailure(row: { capability: string; verb: string }, failed: boolean) {
  deliveryFailures.inc({ capability: row.capability, verb: row.verb });
  if (failed) rowsFailed.inc({ capability: row.capability, verb: row.verb });
}
