import { sql } from 'drizzle-orm';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../workers/logger';
import { createTestDatabase, type TestDatabase } from '../../support/db';
import { PII_SENTINELS } from '../../support/pii-sentinels';
import { suiteLogger } from '../../support/suite-log';

const { phone, name, email } = PII_SENTINELS;

function memoryStream() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}

describe('failed queries in the logs', () => {
  let db: TestDatabase;
  const errors: unknown[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.db.execute(sql`create table pii_probe (id uuid primary key default gen_random_uuid(), phone text unique, name text not null, email text)`);
    await db.db.execute(sql`insert into pii_probe (phone, name, email) values (${phone}, ${name}, ${email})`);
    const fail = (q: Promise<unknown>) => q.then(() => expect.unreachable('the query should fail'), (err: unknown) => errors.push(err));
    // A unique violation (its detail quotes the key), a data exception (its message quotes the
    // input) and a not-null violation (its detail quotes the failing row).
    await fail(db.db.execute(sql`insert into pii_probe (phone, name, email) values (${phone}, ${name}, ${email})`));
    await fail(db.db.execute(sql`select * from pii_probe where id = ${phone}`));
    await fail(db.db.execute(sql`insert into pii_probe (phone, name, email) values (${`${phone}0`}, null, ${email})`));
  });
  afterAll(async () => db?.drop());

  it('the errors themselves carry the values (so the check below can fail)', () => {
    const raw = memoryStream();
    const plain = pino(raw.stream);
    for (const err of errors) plain.error({ err }, 'query failed');
    for (const value of [phone, name, email]) expect(raw.text()).toContain(value);
  });

  it('the production logger writes the statement, the SQLSTATE and the constraint, never the values', () => {
    const out = memoryStream();
    const logger = createLogger({ 'log.level': 'info' }, 'test', out.stream);
    const suite = suiteLogger();
    for (const err of errors) {
      logger.error({ err }, 'query failed');
      // Also into the suite log, where test/log-scan looks for the sentinels after the run.
      suite.error({ err }, 'query failed');
    }
    const text = out.text();
    for (const value of [phone, name, email]) expect(text).not.toContain(value);
    const [unique, invalid, notNull] = text.trim().split('\n').map((l) => JSON.parse(l).err);
    expect(unique).toMatchObject({ code: '23505', constraint_name: 'pii_probe_phone_key' });
    expect(unique.message).toContain('insert into pii_probe');
    expect(unique.query).toContain('values ($1, $2, $3)');
    expect(invalid).toMatchObject({ code: '22P02' });
    expect(notNull).toMatchObject({ code: '23502', column_name: 'name' });
  });
});
