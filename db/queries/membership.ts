import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { groupMembers, groups, tenants, users } from '../schema/access';
import { tenantOfGroup } from '../../domain/access/groups';
import { notifyAccessChanged } from './access-changed';

export async function isOperator(db: DbOrTx, userId: string, operatorGroups: readonly string[]) {
  if (operatorGroups.length === 0) return false;
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(
      and(
        eq(groups.type, 'OPERATOR'),
        inArray(groupMembers.groupId, [...operatorGroups]),
        eq(groupMembers.userId, userId),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function groupContains(db: DbOrTx, groupId: string, userId: string) {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
    .limit(1);
  return rows.length > 0;
}

export async function addGroupMember(db: DbOrTx, groupId: string, userId: string) {
  const rows = await db.insert(groupMembers).values({ groupId, userId }).onConflictDoNothing().returning();
  const tenant = tenantOfGroup(groupId);
  if (tenant && rows.length > 0) await notifyAccessChanged(db, tenant);
  return rows.length > 0;
}

export async function removeGroupMember(db: DbOrTx, groupId: string, userId: string) {
  const rows = await db
    .delete(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
    .returning();
  const tenant = tenantOfGroup(groupId);
  if (tenant && rows.length > 0) await notifyAccessChanged(db, tenant);
  return rows.length > 0;
}

export async function countGroupMembers(db: DbOrTx, groupId: string) {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(groupMembers)
    .where(eq(groupMembers.groupId, groupId));
  return rows[0]?.n ?? 0;
}

/**
 * The tenant lock: the first lock of every membership-dependent write and of member removal, so
 * they run one after another per tenant (docs/access.md, Concurrency). NO KEY UPDATE: it does not
 * block the key-share locks that inserts referencing the tenant take.
 */
export async function lockTenant(tx: DbOrTx, tenantId: string) {
  const rows = await tx.execute(sql`select id from ${tenants} where id = ${tenantId} for no key update`);
  return rows.length > 0;
}

export async function ensureOperatorGroups(db: DbOrTx, names: readonly string[], bootstrap: readonly string[]) {
  for (const name of names) {
    await db
      .insert(groups)
      .values({ id: name, type: 'OPERATOR', tenantId: null, name })
      .onConflictDoNothing();
  }
  const first = names[0];
  if (!first) return;
  for (const userId of bootstrap) await addGroupMember(db, first, userId);
}

export async function upsertUserDirectory(
  db: DbOrTx,
  userId: string,
  name: string | undefined,
  email: string | undefined,
) {
  await db
    .insert(users)
    .values({ id: userId, name: name ?? null, email: email ?? null })
    .onConflictDoUpdate({
      target: users.id,
      set: {
        name: sql`coalesce(excluded.name, ${users.name})`,
        email: sql`coalesce(excluded.email, ${users.email})`,
        updatedAt: sql`now()`,
      },
    });
}

export async function userNames(db: DbOrTx, ids: readonly string[]): Promise<Map<string, string | null>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, unique));
  return new Map(rows.map((r) => [r.id, r.name]));
}
