// The guarded read GET /api/my-capabilities against a bare Hono route in the same server, under
// the same load from a separate autocannon process. Goal: guarded ≥ 0.5 × bare throughput.
import { Hono } from 'hono';
import pino from 'pino';
import { createApp } from '../api/app';
import { createDatabase } from '../db/client';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createListeningAccessCache } from '../workers/access-cache-listener';
import { bootstrapAccess } from '../workers/bootstrap';
import { loadSettings } from '../workers/config';
import { runLoad, type LoadResult } from './support/load';
import { startBenchDatabase } from './support/servers';

const SECONDS = 8;
const CONNECTIONS = 32;

const bench = await startBenchDatabase();
const database = createDatabase(bench.url, { max: 10 });
const settings = loadSettings({}, { 'log.level': 'error' });
await bootstrapAccess(database.db, settings);
const logger = pino({ level: 'error' }) // stdout carries only the result line;
// Two API stacks in one server: as deployed (snapshot cache with NOTIFY invalidation, the
// default), and with the cache off (a PostgreSQL round trip per request), under /nocache.
const access = await createListeningAccessCache(database.sql, settings['access.cache-ttl-ms'], logger);
const app = createApp({ db: database.db, settings, logger, readiness: {}, accessCache: access.cache });
const uncached = createApp({ db: database.db, settings, logger, readiness: {} });
const outer = new Hono();
outer.get('/bench/bare', (c) => c.json({ PHONE: 'read-write' }));
outer.mount('/nocache', uncached.fetch);
outer.route('/', app);

const server = serve({ fetch: outer.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// Seed: a tenant with two subscriptions and grants for the benchmark user, through the API.
const h = (user: string, tenant?: string) => ({
  'Content-Type': 'application/json',
  'X-User-Id': user,
  ...(tenant ? { 'X-Tenant-Id': tenant } : {}),
});
await fetch(`${base}/api/tenants`, { method: 'POST', headers: h('owner'), body: JSON.stringify({ id: 'bench', name: 'Bench' }) });
await fetch(`${base}/api/tenants/bench/members/reader`, { method: 'PUT', headers: h('owner', 'bench') });
for (const code of ['PHONE', 'SLA']) {
  await fetch(`${base}/api/tenants/bench/capabilities/${code}`, { method: 'PUT', headers: h('owner', 'bench') });
  await fetch(`${base}/api/tenants/bench/users/reader/capabilities/${code}`, {
    method: 'PUT',
    headers: h('owner', 'bench'),
    body: JSON.stringify({ level: 'read' }),
  });
}
const check = await (await fetch(`${base}/api/my-capabilities`, { headers: h('reader', 'bench') })).json();
if (JSON.stringify(check) !== JSON.stringify({ PHONE: 'read', SLA: 'read' })) throw new Error(`bad seed: ${JSON.stringify(check)}`);

// Warm up both, then alternate (bare, guarded, bare, guarded) so drift on a shared machine hits both.
const guardedHeaders = { 'X-User-Id': 'reader', 'X-Tenant-Id': 'bench' };
await runLoad({ url: `${base}/bench/bare`, seconds: 2, connections: CONNECTIONS });
await runLoad({ url: `${base}/api/my-capabilities`, seconds: 2, connections: CONNECTIONS, headers: guardedHeaders });
const bare: LoadResult[] = [];
const guarded: LoadResult[] = [];
const noCache: LoadResult[] = [];
for (let round = 0; round < 2; round++) {
  bare.push(await runLoad({ url: `${base}/bench/bare`, seconds: SECONDS / 2, connections: CONNECTIONS }));
  guarded.push(
    await runLoad({ url: `${base}/api/my-capabilities`, seconds: SECONDS / 2, connections: CONNECTIONS, headers: guardedHeaders }),
  );
  noCache.push(
    await runLoad({ url: `${base}/nocache/api/my-capabilities`, seconds: SECONDS / 2, connections: CONNECTIONS, headers: guardedHeaders }),
  );
}
const mean = (xs: LoadResult[], k: keyof LoadResult) => xs.reduce((a, x) => a + x[k], 0) / xs.length;
const max = (xs: LoadResult[], k: keyof LoadResult) => Math.max(...xs.map((x) => x[k]));
const bareRps = mean(bare, 'requestsPerSec');
const guardedRps = mean(guarded, 'requestsPerSec');
const ratio = guardedRps / bareRps;

server.close();
await access.stop();
await database.close();
await bench.stop();

process.stdout.write(
  `${JSON.stringify({
    bench: 'access-guarded-read',
    connections: CONNECTIONS,
    seconds: SECONDS,
    guarded: { route: 'GET /api/my-capabilities', rps: Math.round(guardedRps), p99Ms: max(guarded, 'p99Ms'), non2xx: mean(guarded, 'non2xx') },
    guardedWithoutCache: {
      route: 'GET /api/my-capabilities, access.cache-ttl-ms=0',
      rps: Math.round(mean(noCache, 'requestsPerSec')),
      p99Ms: max(noCache, 'p99Ms'),
      ratio: Math.round((mean(noCache, 'requestsPerSec') / bareRps) * 100) / 100,
    },
    baseline: { route: 'GET /bench/bare (bare Hono route, same server)', rps: Math.round(bareRps), p99Ms: max(bare, 'p99Ms') },
    ratio: Math.round(ratio * 100) / 100,
    goal: { ratioAtLeast: 0.5 },
    pass: ratio >= 0.5,
  })}\n`,
);
process.exit(0);
