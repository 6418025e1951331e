import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { timingSafeEqual } from 'node:crypto';
import { outboxBacklog } from '../db/outbox';
import type { Database } from '../db/client';
import { measurePool } from '../integrations/metrics/db-pool';
import { measureOutboxBacklog } from '../integrations/metrics/outbox';
import { metricsRegistry } from '../integrations/metrics/registry';
import type { Settings } from '../domain/settings';

export interface MetricsListener {
  /** Where Prometheus scrapes, e.g. `http://0.0.0.0:9464/metrics`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface MetricsOptions {
  /** The process's database: pool figures and the outbox backlog are read from it. */
  database: Database;
  /** More exposition text appended to ours on every scrape (the worker's Temporal SDK metrics). */
  extra?: () => Promise<string>;
}

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

let shared: Promise<MetricsListener | undefined> | undefined;
const extras: Array<() => Promise<string>> = [];

/**
 * The process's own Prometheus listener on `metrics.port` (never the API port), so metrics are
 * not reachable where the public API is. Undefined when `metrics.port` is 0. With `metrics.token`
 * set, a scrape without `Authorization: Bearer <token>` gets 401. One per process: when the API
 * node and the worker share a process (`npm start`), the second call joins the first listener.
 */
export function startMetricsServer(settings: Settings, o: MetricsOptions, logger: Logger): Promise<MetricsListener | undefined> {
  if (settings['metrics.port'] === 0) return Promise.resolve(undefined);
  if (o.extra) extras.push(o.extra);
  shared ??= listen(settings, o.database, logger);
  return shared;
}

async function listen(settings: Settings, database: Database, logger: Logger): Promise<MetricsListener> {
  measurePool(database.sql, settings['database.pool-size']);
  measureOutboxBacklog(() => outboxBacklog(database.db));
  const token = settings['metrics.token'];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    // Liveness for roles that serve no other HTTP (worker, dispatcher): answered by this event
    // loop, so a blocked loop fails the probe where a bare TCP check would pass. No token: it tells nothing.
    if (req.method === 'GET' && path === '/health/live') {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' }).end('ok\n');
      return;
    }
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: scrape GET /metrics (or GET /health/live)\n');
      return;
    }
    if (token && !sameToken(req.headers.authorization ?? '', `Bearer ${token}`)) {
      res.writeHead(401, { 'Content-Type': 'text/plain', 'WWW-Authenticate': 'Bearer realm="metrics"' }).end('Unauthorized\n');
      return;
    }
    scrape().then(
      (text) => res.writeHead(200, { 'Content-Type': metricsRegistry.contentType }).end(text),
      (err) => {
        logger.error({ err }, 'metrics scrape failed');
        res.writeHead(503, { 'Content-Type': 'text/plain' }).end('Metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings['metrics.port'], settings['metrics.host'], () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = settings['metrics.host'].includes(':') ? `[${settings['metrics.host']}]` : settings['metrics.host'];
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}/metrics`,
    port,
    close: () => (closing ??= new Promise<void>((resolve) => server.close(() => resolve()))),
  };
}

async function scrape() {
  const parts = await Promise.all([metricsRegistry.metrics(), ...extras.map((extra) => extra())]);
  return parts.join('\n');
}

/** A loopback port free right now (for the Temporal SDK's own exporter, read through our listener). */
export async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
