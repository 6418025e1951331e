import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { groupMembers, tenantMembers, tenants, users } from '../schema/access';

export interface UserTenantRow {
  id: string;
  name: string;
  /** False for a tenant a platform operator sees without belonging to it. */
  isMember: boolean;
  /** Asked of the tenant's ownership group (rule 7), never derived from the role column. */
  isOwner: boolean;
}

/** The tenants a user belongs to or, for a platform operator, every tenant; by name, at most `limit`. */
export async function listUserTenants(db: DbOrTx, params: { userId: string; everyTenant: boolean; limit: number }): Promise<UserTenantRow[]> {
  const { userId, everyTenant, limit } = params;
  const isMember = sql<boolean>`exists(select 1 from ${tenantMembers} m where m.tenant_id = ${tenants.id} and m.user_id = ${userId})`;
  return db
    .select({
      id: tenants.id,
      name: tenants.name,
      isMember,
      isOwner: sql<boolean>`exists(select 1 from ${groupMembers} gm where gm.group_id = 'owner:' || ${tenants.id} and gm.user_id = ${userId})`,
    })
    .from(tenants)
    .where(everyTenant ? undefined : isMember)
    .orderBy(asc(sql`lower(${tenants.name})`), asc(tenants.id))
    .limit(limit);
}

/** The name the user directory holds for a user (from the gateway's X-User-Name), if any. */
export async function userDirectoryName(db: DbOrTx, params: { userId: string }): Promise<string | null> {
  const rows = await db.select({ name: users.name }).from(users).where(eq(users.id, params.userId));
  return rows[0]?.name ?? null;
}
