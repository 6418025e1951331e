// A session ended under a transaction (a restart, a failover, pg_terminate_backend) fails that
// transaction with a connection failure, and nothing more: before patches/postgres+3.4.9.patch
// the driver wrote the rollback to the closed connection and threw from a setImmediate, which
// ended the process (this file's worker, here; an API node or a dispatcher in production).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionFailure } from '../../../db/errors';
import { createTestDatabase, type TestDatabase } from '../../support/db';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

const endOwnSession = sql`select pg_terminate_backend(pg_backend_pid())`;
const failureOf = (p: Promise<unknown>) => p.then(() => expect.unreachable('the transaction committed'), (err: unknown) => err);

describe('a session ended under a transaction', () => {
  it('fails the transaction with a connection failure; the pool serves the next queries', async () => {
    const err = await failureOf(db.db.transaction(async (tx) => tx.execute(endOwnSession)));
    expect(isConnectionFailure(err)).toBe(true);
    // Several round trips: the deferred write that used to throw has long run by the last answer.
    for (let i = 0; i < 5; i++) expect(await db.sql`select ${i}::int as i`).toEqual([{ i }]);
  });

  // Whether one still ran before the server acted on the termination is the server's timing;
  // that none is left waiting, and that the pool is whole afterwards, is the driver's part: the
  // FATAL's error once stayed on the connection and failed the first query of its next session.
  it('statements still queued in it are answered, not left waiting; no query after it inherits its error', async () => {
    let queued: Promise<PromiseSettledResult<unknown>[]> = Promise.resolve([]);
    const err = await failureOf(
      db.db.transaction(async (tx) => {
        const ending = tx.execute(endOwnSession);
        // Promise.resolve starts each statement now (drizzle runs one when it is awaited), behind the first.
        queued = Promise.allSettled(Array.from({ length: 3 }, (_, i) => Promise.resolve(tx.execute(sql`select ${i}::int`))));
        await ending;
      }),
    );
    expect(isConnectionFailure(err)).toBe(true);
    expect(await queued).toHaveLength(3);
    expect(await Promise.all(Array.from({ length: 20 }, (_, i) => db.sql`select ${i}::int as i`))).toHaveLength(20);
  });
});
