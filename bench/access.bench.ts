// The guarded read GET /api/my-capabilities against a bare Hono route in the same server, under
// the same load from a separate autocannon process. Goal: guarded ≥ 0.5 × bare throughput.
import { Hono } from 'hono';
import pino from 'pino';
import { createApp } from '../api/app';
import { createDatabase } from '../db/client';
import { mailerFor } from '../integrations/mail/mailer';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createListeningAccessCache } from '../workers/access-cache-listener';
import { bootstrapAccess } from '../workers/bootstrap';
import { loadSettings } from '../workers/config';
import { runLoad, type LoadResult } from './support/load';
import { roundOrder } from './support/order';
import { startBenchDatabase } from './support/servers';

const SECONDS = 24;
const ROUNDS = 4;
const CONNECTIONS = 32;

const bench = await startBenchDatabase();
const database = createDatabase(bench.url, { max: 10 });
const settings = loadSettings({}, { 'log.level': 'error' });
await bootstrapAccess(database.db, settings);
// Errors only, and to stderr: stdout carries only the result line.
const logger = pino({ level: 'error' }, pino.destination(2));
// Two API stacks in one server: as deployed (snapshot cache with NOTIFY invalidation, the
// default), and with the cache off (a PostgreSQL round trip per request), under /nocache.
const access = await createListeningAccessCache(database.sql, settings['access.cache-ttl-ms'], logger);
const app = createApp({ db: database.db, settings, logger, mailer: mailerFor(settings), readiness: {}, accessCache: access.cache });
const uncached = createApp({ db: database.db, settings, logger, mailer: mailerFor(settings), readiness: {} });
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

// Warm up every side, then run them in a different order each round, so drift on a shared machine hits all alike.
const guardedHeaders = { 'X-User-Id': 'reader', 'X-Tenant-Id': 'bench' };
const sides = {
  bare: { path: '/bench/bare', headers: {}, results: [] as LoadResult[] },
  guarded: { path: '/api/my-capabilities', headers: guardedHeaders, results: [] as LoadResult[] },
  noCache: { path: '/nocache/api/my-capabilities', headers: guardedHeaders, results: [] as LoadResult[] },
};
const names = Object.keys(sides) as (keyof typeof sides)[];
for (const name of names) await runLoad({ url: `${base}${sides[name].path}`, seconds: 2, connections: CONNECTIONS, headers: sides[name].headers });
for (let round = 0; round < ROUNDS; round++) {
  for (const name of roundOrder(names, round)) {
    const side = sides[name];
    side.results.push(await runLoad({ url: `${base}${side.path}`, seconds: SECONDS / ROUNDS, connections: CONNECTIONS, headers: side.headers }));
  }
}
const [bare, guarded, noCache] = [sides.bare.results, sides.guarded.results, sides.noCache.results];
const mean = (xs: LoadResult[], k: keyof LoadResult) => xs.reduce((a, x) => a + x[k], 0) / xs.length;
const max = (xs: LoadResult[], k: keyof LoadResult) => Math.max(...xs.map((x) => x[k]));
/** Requests that did not answer 2xx, summed over the rounds. */
const failed = (xs: LoadResult[]) => xs.reduce((a, x) => a + x.non2xx + x.errors, 0);
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
    guarded: { route: 'GET /api/my-capabilities', rps: Math.round(guardedRps), p99Ms: max(guarded, 'p99Ms'), failed: failed(guarded) },
    guardedWithoutCache: {
      route: 'GET /api/my-capabilities, access.cache-ttl-ms=0',
      rps: Math.round(mean(noCache, 'requestsPerSec')),
      p99Ms: max(noCache, 'p99Ms'),
      ratio: Math.round((mean(noCache, 'requestsPerSec') / bareRps) * 100) / 100,
    },
    baseline: { route: 'GET /bench/bare (bare Hono route, same server)', rps: Math.round(bareRps), p99Ms: max(bare, 'p99Ms') },
    ratio: Math.round(ratio * 100) / 100,
    goal: { ratioAtLeast: 0.5 },
    pass: ratio >= 0.5 && failed(bare) + failed(guarded) + failed(noCache) === 0,
  })}\n`,
);
process.exit(0);
