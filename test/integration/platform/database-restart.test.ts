// A PostgreSQL restart under a running app (issue 23 item 6): while the server is down every
// request answers 503 `database-unavailable` with Retry-After, never a 500; once it is back the
// same app (not rebuilt) writes again, its LISTEN connection is subscribed again without help, and
// its access cache serves again once its heartbeat comes back through that connection. The
// server is a PostgreSQL of this file's own, stopped and started again on the same data dir:
// the suite's shared one cannot be restarted under the other files.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app';
import { createDatabase, migrateDatabase, type Database } from '../../../db/client';
import { mailerFor } from '../../../integrations/mail/mailer';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../../services/platform/database-unavailable';
import { createListeningAccessCache } from '../../../workers/access-cache-listener';
import { bootstrapAccess } from '../../../workers/bootstrap';
import { getFreePort } from '../../../workers/embedded/child-process';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../../workers/embedded/postgres';
import { testSettings } from '../../support/app';

let dir: string;
let port: number;
let server: EmbeddedPostgres;
let database: Database;
let app: ReturnType<typeof createApp>;
let access: Awaited<ReturnType<typeof createListeningAccessCache>>;
const subscriptions: number[] = [];
const notices: string[] = [];

const startServer = () => startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port, settings: { fsync: 'off' } });
/** Waits for a state, checked every 50 ms; the test's timeout bounds it. */
const until = async (state: () => boolean) => {
  while (!state()) await new Promise((r) => setTimeout(r, 50));
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platform-pg-restart-'));
  port = await getFreePort();
  server = await startServer();
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  await admin.unsafe('create database platform');
  await admin.end();
  const url = new URL(server.url);
  url.pathname = '/platform';
  await migrateDatabase(url.toString());
  database = createDatabase(url.toString(), { max: 4 });
  const settings = testSettings();
  await bootstrapAccess(database.db, settings);
  access = await createListeningAccessCache(database.sql, settings['access.cache-ttl-ms'], pino({ level: 'silent' }), { heartbeatMs: 100, invalidationWaitMs: 400 });
  // One more channel on the same LISTEN connection, counting its (re)subscriptions.
  await database.sql.listen('restart_probe', (payload) => notices.push(payload), () => subscriptions.push(Date.now()));
  app = createApp({ db: database.db, settings, logger: pino({ level: 'silent' }), mailer: mailerFor(settings), readiness: {}, accessCache: access.cache });
}, 180_000);

afterAll(async () => {
  await access?.stop().catch(() => {});
  await database?.close();
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const createTenant = (id: string) =>
  app.request('/api/tenants', { method: 'POST', headers: { 'X-User-Id': 'alice', 'Content-Type': 'application/json' }, body: JSON.stringify({ id, name: id }) });

describe('PostgreSQL restarted under a running app', () => {
  it('answers 503 with Retry-After while it is down, and writes, listens and caches again once it is back', async () => {
    expect((await createTenant('before')).status).toBe(201);
    await until(() => access.cache.serving);
    expect(subscriptions).toHaveLength(1);

    await server.stop();
    for (const attempt of ['down-1', 'down-2']) {
      const res = await createTenant(attempt);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      expect(((await res.json()) as { code: string }).code).toBe('database-unavailable');
    }
    await until(() => !access.cache.serving);

    server = await startServer();
    // The pool reconnects on the next query: the first write after the restart succeeds.
    expect((await createTenant('after')).status).toBe(201);
    // The LISTEN connection subscribes again by itself (the driver may repeat the LISTEN it
    // retried while the server was down, so "again" is "more than once"), and hears what is sent after that.
    await until(() => subscriptions.length > 1);
    await database.sql`select pg_notify('restart_probe', 'after the restart')`;
    await until(() => notices.length === 1);
    expect(notices).toEqual(['after the restart']);
    // The heartbeat pings come back through it: the access cache serves again.
    await until(() => access.cache.serving);
    expect((await createTenant('cached')).status).toBe(201);
  });
});
