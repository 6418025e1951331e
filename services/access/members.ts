import type { Db } from '../../db/client';
import { insertAudit } from '../../db/queries/access-audit';
import { cancelOpenRequestsOf } from '../../db/queries/access-requests';
import { addGroupMember, lockTenant } from '../../db/queries/membership';
import {
  deleteMember,
  getMember,
  insertMember,
  listMembers,
  removeFromTenantGroups,
  setMemberRole,
  type MemberRole,
} from '../../db/queries/tenants';
import { withTransactionRetry } from '../../db/transaction-retry';
import { ownerGroupId } from '../../domain/access/groups';
import { refuseApiClient } from '../../domain/access/members';
import { notFound } from '../../domain/errors';
import { revokeAllGrants } from './grants';
import { dropOwnership } from './ownership';

/** Members with names, role and ownership. */
export async function listTenantMembers(db: Db, input: { tenantId: string }) {
  return listMembers(db, input.tenantId);
}

export async function addMember(db: Db, input: { tenantId: string; userId: string; actor: string; role?: MemberRole }) {
  const { tenantId, userId, actor, role = 'member' } = input;
  return db.transaction(async (tx) => {
    const added = await insertMember(tx, tenantId, userId, role, actor);
    if (added) {
      await insertAudit(tx, { tenantId, actor, action: 'member.add', subjectUserId: userId, detail: { role } });
    }
    return { created: added !== null };
  });
}

/** Under the tenant lock: every write that needs the membership runs wholly before or after this. */
export async function removeMember(db: Db, input: { tenantId: string; userId: string; actor: string }) {
  const { tenantId, userId, actor } = input;
  await withTransactionRetry(db, async (tx) => {
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

/** Rule 4: promotion to tenant-admin and the owner:<t> binding move together. */
export async function setRole(db: Db, input: { tenantId: string; userId: string; role: MemberRole; actor: string }) {
  const { tenantId, userId, role, actor } = input;
  await withTransactionRetry(db, async (tx) => {
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
