import type { Db, Tx } from '../../db/client';
import { insertAudit } from '../../db/queries/access-audit';
import { cancelOpenRequestsOf } from '../../db/queries/access-requests';
import { deleteUserGrants } from '../../db/queries/entitlements';
import {
  addGroupMember,
  countGroupMembers,
  groupContains,
  lockTenant,
  ownerGroupId,
  removeGroupMember,
} from '../../db/queries/membership';
import {
  deleteMember,
  getMember,
  insertMember,
  insertOwnershipGroup,
  insertTenant,
  removeFromTenantGroups,
  setMemberRole,
  type MemberRole,
} from '../../db/queries/tenants';
import { AppError, conflict, notFound } from '../../domain/errors';

/** The caller becomes the first member and owner (rule 3), all in one transaction. */
export async function createTenant(db: Db, id: string, name: string, userId: string) {
  return db.transaction(async (tx) => {
    const tenant = await insertTenant(tx, id, name, userId);
    if (!tenant) throw conflict('tenant-exists', `Tenant ${id} already exists`);
    await insertOwnershipGroup(tx, id);
    await insertMember(tx, id, userId, 'tenant-admin', userId);
    await addGroupMember(tx, ownerGroupId(id), userId);
    await insertAudit(tx, { tenantId: id, actor: userId, action: 'tenant.create', subjectUserId: userId });
    await insertAudit(tx, { tenantId: id, actor: userId, action: 'owner.grant', subjectUserId: userId });
    return tenant;
  });
}

export async function addMember(db: Db, tenantId: string, userId: string, actor: string, role: MemberRole = 'member') {
  return db.transaction(async (tx) => {
    const added = await insertMember(tx, tenantId, userId, role, actor);
    if (added) {
      await insertAudit(tx, { tenantId, actor, action: 'member.add', subjectUserId: userId, detail: { role } });
    }
    return { created: added !== null };
  });
}

/** Rule 5: the last owner is never removed. Callers hold the tenant lock. */
async function dropOwnership(tx: Tx, tenantId: string, userId: string, actor: string) {
  const group = ownerGroupId(tenantId);
  if (!(await groupContains(tx, group, userId))) return false;
  if ((await countGroupMembers(tx, group)) <= 1) {
    throw conflict('last-owner', 'The only remaining owner cannot be removed');
  }
  await removeGroupMember(tx, group, userId);
  await insertAudit(tx, { tenantId, actor, action: 'owner.revoke', subjectUserId: userId });
  return true;
}

/** Deletes every grant of a member (or API client), one audit record per grant revoked. */
export async function revokeAllGrants(tx: Tx, tenantId: string, userId: string, actor: string, reason: string) {
  for (const g of await deleteUserGrants(tx, tenantId, userId)) {
    await insertAudit(tx, {
      tenantId,
      actor,
      action: 'grant.revoke',
      subjectUserId: userId,
      capabilityCode: g.capabilityCode,
      detail: { level: g.level, reason },
    });
  }
}

export async function removeMember(db: Db, tenantId: string, userId: string, actor: string) {
  await db.transaction(async (tx) => {
    await lockTenant(tx, tenantId);
    if (!(await getMember(tx, tenantId, userId))) throw notFound('Member', 'member-not-found');
    await dropOwnership(tx, tenantId, userId, actor);
    await removeFromTenantGroups(tx, tenantId, userId);
    await revokeAllGrants(tx, tenantId, userId, actor, 'member removed');
    await cancelOpenRequestsOf(tx, tenantId, userId, actor);
    await deleteMember(tx, tenantId, userId);
    await insertAudit(tx, { tenantId, actor, action: 'member.remove', subjectUserId: userId });
  });
}

/** Grant co-ownership (rule 3); the new owner becomes a member and tenant-admin (rule 4). */
export async function grantOwnership(db: Db, tenantId: string, userId: string, actor: string) {
  await db.transaction(async (tx) => {
    await lockTenant(tx, tenantId);
    const member = await getMember(tx, tenantId, userId);
    refuseApiClient(member);
    if (!member) {
      await insertMember(tx, tenantId, userId, 'tenant-admin', actor);
      await insertAudit(tx, { tenantId, actor, action: 'member.add', subjectUserId: userId, detail: { role: 'tenant-admin' } });
    } else if (member.role !== 'tenant-admin') {
      await setMemberRole(tx, tenantId, userId, 'tenant-admin');
    }
    if (await addGroupMember(tx, ownerGroupId(tenantId), userId)) {
      await insertAudit(tx, { tenantId, actor, action: 'owner.grant', subjectUserId: userId });
    }
  });
}

export async function revokeOwnership(db: Db, tenantId: string, userId: string, actor: string) {
  await db.transaction(async (tx) => {
    await lockTenant(tx, tenantId);
    if (!(await dropOwnership(tx, tenantId, userId, actor))) throw notFound('Owner', 'owner-not-found');
    await setMemberRole(tx, tenantId, userId, 'member');
  });
}

/** Rule 4: promotion to tenant-admin and the owner:<t> binding move together. */
export async function setRole(db: Db, tenantId: string, userId: string, role: MemberRole, actor: string) {
  await db.transaction(async (tx) => {
    await lockTenant(tx, tenantId);
    const member = await getMember(tx, tenantId, userId);
    if (!member) throw notFound('Member', 'member-not-found');
    refuseApiClient(member);
    if (role === 'tenant-admin') {
      if (await addGroupMember(tx, ownerGroupId(tenantId), userId)) {
        await insertAudit(tx, { tenantId, actor, action: 'owner.grant', subjectUserId: userId, detail: { via: 'role' } });
      }
    } else {
      await dropOwnership(tx, tenantId, userId, actor);
    }
    if (member.role !== role) {
      await setMemberRole(tx, tenantId, userId, role);
      await insertAudit(tx, { tenantId, actor, action: 'member.role', subjectUserId: userId, detail: { role } });
    }
  });
}

export function requireMember(exists: unknown, userId: string) {
  if (!exists) throw new AppError('not-a-member', `User ${userId} is not a member of this tenant`);
}

/** API clients are machine principals: they get grants, never ownership or a person's role. */
function refuseApiClient(member: { role: string } | null) {
  if (member?.role === 'api-client') {
    throw new AppError('api-client-role-fixed', 'An API client cannot be an owner or change its role');
  }
}
