import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { groupMembers, groups, tenantMembers, tenants, users } from '../schema/access';

export const ownerGroupId = (tenantId: string) => `owner:${tenantId}`;
export const roleGroupId = (tenantId: string, name: string) => `role:${tenantId}:${name}`;

export interface CallerFacts {
  tenantExists: boolean;
  isMember: boolean;
  isOwner: boolean;
  isOperator: boolean;
}

/**
 * Everything the identity middleware needs, in one round trip. Ownership and operator status are
 * asked of the groups ("does this group contain the user?", rule 7), never derived from the
 * user's list of groups.
 */
export async function resolveCallerFacts(
  db: DbOrTx,
  tenantId: string,
  userId: string,
  operatorGroups: readonly string[],
): Promise<CallerFacts> {
  const ops = operatorGroups.length > 0 ? operatorGroups : ['\u0000none'];
  const rows = await db.execute<{ t: boolean; m: boolean; o: boolean; p: boolean }>(sql`
    select
      exists(select 1 from ${tenants} where ${tenants.id} = ${tenantId}) as t,
      exists(select 1 from ${tenantMembers}
             where ${tenantMembers.tenantId} = ${tenantId} and ${tenantMembers.userId} = ${userId}) as m,
      exists(select 1 from ${groupMembers}
             where ${groupMembers.groupId} = ${ownerGroupId(tenantId)} and ${groupMembers.userId} = ${userId}) as o,
      exists(select 1 from ${groupMembers} gm join ${groups} g on g.id = gm.group_id
             where g.type = 'OPERATOR' and gm.group_id in ${ops} and gm.user_id = ${userId}) as p`);
  const r = rows[0];
  return { tenantExists: !!r?.t, isMember: !!r?.m, isOwner: !!r?.o, isOperator: !!r?.p };
}

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
  return rows.length > 0;
}

export async function removeGroupMember(db: DbOrTx, groupId: string, userId: string) {
  const rows = await db
    .delete(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
    .returning();
  return rows.length > 0;
}

export async function countGroupMembers(db: DbOrTx, groupId: string) {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(groupMembers)
    .where(eq(groupMembers.groupId, groupId));
  return rows[0]?.n ?? 0;
}

/** Serialises ownership changes of one tenant (last-owner guard under concurrency). */
export async function lockTenant(tx: DbOrTx, tenantId: string) {
  const rows = await tx.execute(sql`select id from ${tenants} where id = ${tenantId} for update`);
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
