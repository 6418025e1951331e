import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import * as schema from './schema/index';

export type Db = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };
/** A transaction handle; queries accept either a Db or a Tx so callers own transactions. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  sql: postgres.Sql;
  close(): Promise<void>;
}

/** How long a new connection may take to be usable before its query fails (database.connect-timeout-ms). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
/** The longest pause between two attempts to connect while the server is unreachable. */
const RECONNECT_MAX_SECONDS = 0.5;

/**
 * Seconds before the next connection attempt after `retries` failed ones in a row: 50 ms doubling
 * to half a second, jittered. The driver's own curve reaches 20 s, and a query queued behind it
 * waits that long, while PostgreSQL is down (a request hanging past its caller's timeout instead
 * of a prompt 503) and after it is back (a slow recovery).
 */
export const reconnectBackoff = (retries: number) => Math.min(0.05 * 2 ** retries, RECONNECT_MAX_SECONDS) * (0.5 + Math.random() / 2);

export function createDatabase(url: string, options: { max?: number; connectTimeoutMs?: number } = {}): Database {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // Seconds, as the driver counts them; fractions are kept.
    connect_timeout: (options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS) / 1000,
    backoff: reconnectBackoff,
    // Keep timestamps as ISO strings at the driver level would lose Date typing; drizzle maps them.
    connection: { application_name: 'tenant-capability-platform' },
  });
  const db = drizzle(sql, { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export async function migrateDatabase(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(sql), { migrationsFolder });
  } finally {
    await sql.end({ timeout: 5 });
  }
}
