import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { createDatabase, type Database } from '../../db/client';
import { servers, TEMPLATE_DB } from './servers';

export interface TestDatabase extends Database {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database cloned from the run's template: test files never share rows. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const { pgUrl } = servers();
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
  // Concurrent clones of one template can collide ("being accessed by other users"): retry.
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.unsafe(`create database ${name} template ${TEMPLATE_DB}`);
      break;
    } catch (err) {
      if (attempt >= 20 || !String(err).includes('being accessed')) throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const database = createDatabase(url.toString(), { max: 20 });
  return {
    ...database,
    url: url.toString(),
    async drop() {
      await database.close();
      const a = postgres(pgUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
