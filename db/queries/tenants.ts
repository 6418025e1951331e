import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { groupMembers, groups, tenantMembers, tenants, users } from '../schema/access';
import { ownerGroupId } from '../../domain/access/groups';
import { notifyAccessChanged } from './access-changed';

export type MemberRole = 'member' | 'tenant-admin' | 'api-client';

export async function insertTenant(db: DbOrTx, id: string, name: string, createdBy: string) {
  const rows = await db.insert(tenants).values({ id, name, createdBy }).onConflictDoNothing().returning();
  if (rows[0]) await notifyAccessChanged(db, id);
  return rows[0] ?? null;
}

export async function insertOwnershipGroup(db: DbOrTx, tenantId: string) {
  await db
    .insert(groups)
    .values({ id: ownerGroupId(tenantId), type: 'OWNERSHIP', tenantId, name: `Owners of ${tenantId}` })
    .onConflictDoNothing();
}

export async function getMember(db: DbOrTx, tenantId: string, userId: string) {
  const rows = await db
    .select()
    .from(tenantMembers)
    .where(and(eq(tenantMembers.tenantId, tenantId), eq(tenantMembers.userId, userId)));
  return rows[0] ?? null;
}

export async function insertMember(db: DbOrTx, tenantId: string, userId: string, role: MemberRole, by: string) {
  const rows = await db
    .insert(tenantMembers)
    .values({ tenantId, userId, role, addedBy: by })
    .onConflictDoNothing()
    .returning();
  if (rows[0]) await notifyAccessChanged(db, tenantId);
  return rows[0] ?? null;
}

export async function setMemberRole(db: DbOrTx, tenantId: string, userId: string, role: MemberRole) {
  await db
    .update(tenantMembers)
    .set({ role })
    .where(and(eq(tenantMembers.tenantId, tenantId), eq(tenantMembers.userId, userId)));
}

export async function deleteMember(db: DbOrTx, tenantId: string, userId: string) {
  const rows = await db
    .delete(tenantMembers)
    .where(and(eq(tenantMembers.tenantId, tenantId), eq(tenantMembers.userId, userId)))
    .returning();
  await notifyAccessChanged(db, tenantId);
  return rows.length > 0;
}

/** Members with directory names and ownership, the latter asked of the ownership group. */
export async function listMembers(db: DbOrTx, tenantId: string) {
  return db
    .select({
      userId: tenantMembers.userId,
      role: tenantMembers.role,
      addedBy: tenantMembers.addedBy,
      joinedAt: tenantMembers.createdAt,
      name: users.name,
      email: users.email,
      isOwner: sql<boolean>`exists(select 1 from ${groupMembers} gm
        where gm.group_id = ${ownerGroupId(tenantId)} and gm.user_id = ${tenantMembers.userId})`,
    })
    .from(tenantMembers)
    .leftJoin(users, eq(users.id, tenantMembers.userId))
    .where(eq(tenantMembers.tenantId, tenantId))
    .orderBy(asc(tenantMembers.createdAt), asc(tenantMembers.userId));
}

/** Tenant role groups (candidate groups) and the group-membership rows of one tenant. */
export async function listRoleGroups(db: DbOrTx, tenantId: string) {
  return db
    .select({
      id: groups.id,
      name: groups.name,
      description: groups.description,
      createdAt: groups.createdAt,
      memberCount: sql<number>`(select count(*)::int from ${groupMembers} gm where gm.group_id = ${groups.id})`,
    })
    .from(groups)
    .where(and(eq(groups.tenantId, tenantId), eq(groups.type, 'ROLE')))
    .orderBy(asc(groups.name));
}

export async function getRoleGroup(db: DbOrTx, tenantId: string, groupId: string) {
  const rows = await db
    .select()
    .from(groups)
    .where(and(eq(groups.id, groupId), eq(groups.tenantId, tenantId), eq(groups.type, 'ROLE')));
  return rows[0] ?? null;
}

export async function insertRoleGroup(
  db: DbOrTx,
  tenantId: string,
  id: string,
  name: string,
  description: string | null,
) {
  const rows = await db
    .insert(groups)
    .values({ id, type: 'ROLE', tenantId, name, description })
    .onConflictDoNothing()
    .returning();
  return rows[0] ?? null;
}

export async function listGroupMembers(db: DbOrTx, groupId: string) {
  return db
    .select({ userId: groupMembers.userId, name: users.name, addedAt: groupMembers.createdAt })
    .from(groupMembers)
    .leftJoin(users, eq(users.id, groupMembers.userId))
    .where(eq(groupMembers.groupId, groupId))
    .orderBy(asc(groupMembers.userId));
}

/** Removes a user from every group of the tenant (on member removal). */
export async function removeFromTenantGroups(db: DbOrTx, tenantId: string, userId: string) {
  await db.execute(sql`delete from ${groupMembers} gm using ${groups} g
    where g.id = gm.group_id and g.tenant_id = ${tenantId} and gm.user_id = ${userId}`);
}

export async function tenantExists(db: DbOrTx, tenantId: string) {
  const rows = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId));
  return rows.length > 0;
}
