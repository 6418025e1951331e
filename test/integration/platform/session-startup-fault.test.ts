// A session the server ends while the driver starts it (a restart or failover catching a new pool
// connection) fails the query that opened it, and nothing more. Before the fetch_types repair in
// patches/postgres+3.4.9.patch, the driver's array-types query on that session was rejected too,
// with nobody to hear it: an unhandled rejection, which ends an API node or a dispatcher (and
// failed CI once, in database-restart.test.ts, on a loaded machine).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../../db/client';
import { isConnectionFailure } from '../../../db/errors';
import { createTestDatabase, type TestDatabase } from '../../support/db';
import { startStartupFaultRelay, type StartupFaultRelay } from '../../support/pg-startup-fault';

let target: TestDatabase;
let relay: StartupFaultRelay;
let viaRelay: Database;
const unhandled: unknown[] = [];
const hear = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  target = await createTestDatabase();
  const url = new URL(target.url);
  relay = await startStartupFaultRelay({ host: url.hostname, port: Number(url.port) });
  url.port = String(relay.port);
  viaRelay = createDatabase(url.toString(), { max: 1 });
  process.on('unhandledRejection', hear);
});

afterAll(async () => {
  process.off('unhandledRejection', hear);
  await viaRelay?.close();
  await relay?.close();
  await target?.drop();
});

/** Lets a rejection nobody handled reach `unhandledRejection` (node reports them after the microtask queue drains). */
const afterPendingRejections = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('a session ended while the driver starts it', () => {
  it('fails the query that opened it with a connection failure; the next session serves, arrays included; nothing goes unhandled', async () => {
    const err = await viaRelay.sql`select 1 as one`.then(
      () => expect.unreachable('the first session was ended under it'),
      (e: unknown) => e,
    );
    expect(isConnectionFailure(err)).toBe(true);
    expect(relay.sessions()).toBe(1);

    // A new session, whose array-types query runs: a text[] comes back as an array, not '{a,b}'.
    expect(await viaRelay.sql`select ${['a', 'b']}::text[] as tags`).toEqual([{ tags: ['a', 'b'] }]);
    expect(relay.sessions()).toBe(2);
    await afterPendingRejections();
    expect(unhandled).toEqual([]);
  });
});
