import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';

export const ACCESS_CHANNEL = 'access_changed';

/**
 * Tells every API node that cached snapshots of this tenant are stale. Inside a transaction
 * the notice is sent on commit, and not at all on rollback. `*` means every tenant.
 */
export async function notifyAccessChanged(db: DbOrTx, tenantId: string) {
  await db.execute(sql`select pg_notify(${ACCESS_CHANNEL}, ${tenantId})`);
}
