// PostgreSQL out of reach is not a bug: every request answers 503 `database-unavailable` with
// Retry-After (never a 500, never a hang), and only connection-level failures are taken for it.
// The failures here are the real driver's, against a port nothing listens on.
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app';
import { createDatabase, type Database } from '../../../db/client';
import { isConnectionFailure } from '../../../db/errors';
import { mailerFor } from '../../../integrations/mail/mailer';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../../services/platform/database-unavailable';
import { loadSettings } from '../../../workers/config';
import { getFreePort } from '../../../workers/embedded/child-process';

let database: Database;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  const port = await getFreePort();
  database = createDatabase(`postgres://nobody:nothing@127.0.0.1:${port}/none`, { max: 2, connectTimeoutMs: 2_000 });
  const settings = loadSettings({}, { 'log.level': 'silent' });
  app = createApp({ db: database.db, settings, logger: pino({ level: 'silent' }), mailer: mailerFor(settings), readiness: {} });
});
afterAll(async () => {
  await database?.sql.end({ timeout: 0 });
});

const rejection = (p: Promise<unknown>) => p.then(() => expect.unreachable('resolved'), (err: unknown) => err);

describe('a database that cannot be reached', () => {
  it('a query, a drizzle query and a transaction fail with a connection failure', async () => {
    expect(isConnectionFailure(await rejection(database.sql`select 1`))).toBe(true);
    expect(isConnectionFailure(await rejection(database.db.execute(sql`select 1`)))).toBe(true);
    expect(isConnectionFailure(await rejection(database.db.transaction(async (tx) => tx.execute(sql`select 1`))))).toBe(true);
  });

  it.each([
    ['POST', '/api/tenants', { id: 'acme', name: 'Acme' }],
    ['GET', '/api/my-capabilities', undefined],
    ['POST', '/api/sla-clocks/00000000-0000-4000-8000-000000000000/pause', undefined],
  ])('%s %s answers 503 database-unavailable with Retry-After', async (method, path, body) => {
    const res = await app.request(path, {
      method,
      headers: { 'X-User-Id': 'alice', 'X-Tenant-Id': 'acme', ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('retry-after')).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    const problem = (await res.json()) as { code: string; detail: string };
    expect(problem.code).toBe('database-unavailable');
    // Neither the URL nor its credentials reach the caller.
    expect(JSON.stringify(problem)).not.toMatch(/nobody|nothing|127\.0\.0\.1/);
  });
});

describe('isConnectionFailure', () => {
  const withQuery = <T extends object>(err: T) => Object.defineProperty(err, 'query', { value: 'select 1', enumerable: false });
  const socketError = (code: string) => Object.assign(new Error(`connect ${code} 10.0.0.1:5432`), { code, errno: -111, syscall: 'connect' });

  it.each([
    ['the driver closing a connection', Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' })],
    ['the driver timing out a connect', Object.assign(new Error('write CONNECT_TIMEOUT'), { code: 'CONNECT_TIMEOUT' })],
    ['an ended pool', Object.assign(new Error('write CONNECTION_ENDED'), { code: 'CONNECTION_ENDED' })],
    ['admin_shutdown (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' })],
    ['cannot_connect_now (57P03)', Object.assign(new Error('the database system is starting up'), { code: '57P03', severity: 'FATAL' })],
    ['connection_failure (08006)', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['too_many_connections (53300)', Object.assign(new Error('sorry, too many clients already'), { code: '53300' })],
    ['a refused socket under a query', withQuery(socketError('ECONNREFUSED'))],
    ['drizzle wrapping a reset socket', Object.assign(new Error('Failed query: select 1\nparams: '), { query: 'select 1', params: [], cause: withQuery(socketError('ECONNRESET')) })],
    ['an AggregateError of refused attempts', withQuery(Object.assign(new AggregateError([socketError('ECONNREFUSED'), socketError('ECONNREFUSED')]), { code: 'ECONNREFUSED' }))],
  ])('%s is one', (_, err) => {
    expect(isConnectionFailure(err)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505', query: 'insert' })],
    ['a syntax error', Object.assign(new Error('syntax error'), { code: '42601', query: 'selec' })],
    ['a serialisation failure', Object.assign(new Error('could not serialize'), { code: '40001', query: 'update' })],
    // An HTTP client's refused connection (a webhook, S3) is that part's failure, not the database's.
    ['fetch failing on a refused socket', new TypeError('fetch failed', { cause: socketError('ECONNREFUSED') })],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s is not one', (_, err) => {
    expect(isConnectionFailure(err)).toBe(false);
  });
});
