import postgres from 'postgres';
import { migrateDatabase } from './client';

// Arbitrary but fixed: every node that starts takes the same lock, so migrations run once.
const MIGRATION_LOCK = 7_340_021;

/** Applies committed migrations under an advisory lock, so several nodes may start at once. */
export async function migrateWithLock(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrateDatabase(url);
  } finally {
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    await sql.end({ timeout: 5 });
  }
}
