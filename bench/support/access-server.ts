// One API node for the access benches, in its own process so each configuration has its own
// event loop and globals (OpenTelemetry's context manager is process-wide).
// argv: off | metrics | tracing (tracing alone: each differs from off by one thing). Env: BENCH_DATABASE_URL,
// BENCH_OTLP_ENDPOINT (tracing). Prints `{"port":N,"metricsPort":M}` once listening (M is 0 when
// metrics are off); exits when stdin closes.
//
// Serves, side by side on one port and one event loop:
// - `/bench/bare`: a bare Hono route answering the same kind of JSON (the baseline);
// - everything else: the API as api/server.ts serves it (`app.fetch`, access cache on);
// - `/nocache/...`: the same API with the access cache off (a PostgreSQL round trip a request).
// Picked by a string test on the URL, so neither side pays a routing layer the other does not
// (mounting the API under another Hono app wraps every layer of it in one more compose).
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from '../../api/app';
import { createDatabase } from '../../db/client';
import { mailerFor } from '../../integrations/mail/mailer';
import { startTracing } from '../../integrations/tracing/tracing';
import { createListeningAccessCache } from '../../workers/access-cache-listener';
import { bootstrapAccess } from '../../workers/bootstrap';
import { loadSettings } from '../../workers/config';
import { freeLoopbackPort, startMetricsServer } from '../../workers/metrics-server';

const mode = process.argv[2] as 'off' | 'metrics' | 'tracing';
const database = createDatabase(process.env.BENCH_DATABASE_URL!, { max: 10 });
const settings = loadSettings({}, { 'log.level': 'error', 'metrics.port': mode === 'metrics' ? await freeLoopbackPort() : 0, 'metrics.host': '127.0.0.1' });
await bootstrapAccess(database.db, settings);
if (mode === 'tracing') startTracing({ serviceName: 'bench', endpoint: process.env.BENCH_OTLP_ENDPOINT });
const logger = pino({ level: 'error' }, pino.destination(2));
const access = await createListeningAccessCache(database.sql, settings['access.cache-ttl-ms'], logger);
const metrics = await startMetricsServer(settings, { database }, logger);
const app = createApp({ db: database.db, settings, logger, mailer: mailerFor(settings), readiness: {}, accessCache: access.cache });
const uncached = new Hono().mount('/nocache', createApp({ db: database.db, settings, logger, mailer: mailerFor(settings), readiness: {} }).fetch);
const bare = new Hono().get('/bench/bare', (c) => c.json({ PHONE: 'read', SLA: 'read' }));
const fetch = (req: Request, env: unknown) => {
  if (req.url.endsWith('/bench/bare')) return bare.fetch(req, env);
  return req.url.includes('/nocache/') ? uncached.fetch(req, env) : app.fetch(req, env);
};
const server = serve({ fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((r) => server.once('listening', r));
process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port, metricsPort: settings['metrics.port'] })}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  server.close();
  await metrics?.close();
  await access.stop();
  await database.close();
  process.exit(0);
});
