// Who a platform mail names: the tenant that asks (its display name) and, for notices to the
// person who started something, that user's e-mail from the user directory.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { tenants, users } from '../schema/access';

export async function findTenantName(db: DbOrTx, params: { tenantId: string }): Promise<string | null> {
  const rows = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, params.tenantId));
  return rows[0]?.name ?? null;
}

/** The directory's name and e-mail of a user (kept from the gateway's headers); null when unknown. */
export async function findUserContact(db: DbOrTx, params: { userId: string }): Promise<{ name: string | null; email: string | null } | null> {
  const rows = await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, params.userId));
  return rows[0] ?? null;
}
