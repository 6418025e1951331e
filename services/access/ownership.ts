import type { Db, Tx } from '../../db/client';
import { insertAudit } from '../../db/queries/access-audit';
import {
  addGroupMember,
  countGroupMembers,
  groupContains,
  lockTenant,
  removeGroupMember,
} from '../../db/queries/membership';
import { getMember, insertMember, setMemberRole } from '../../db/queries/tenants';
import { withTransactionRetry } from '../../db/transaction-retry';
import { ownerGroupId } from '../../domain/access/groups';
import { refuseApiClient } from '../../domain/access/members';
import { conflict, notFound } from '../../domain/errors';

/** Rule 5: the last owner is never removed. Callers hold the tenant lock. */
export async function dropOwnership(tx: Tx, tenantId: string, userId: string, actor: string) {
  const group = ownerGroupId(tenantId);
  if (!(await groupContains(tx, group, userId))) return false;
  if ((await countGroupMembers(tx, group)) <= 1) {
    throw conflict('last-owner', 'The only remaining owner cannot be removed');
  }
  await removeGroupMember(tx, group, userId);
  await insertAudit(tx, { tenantId, actor, action: 'owner.revoke', subjectUserId: userId });
  return true;
}

/** Grant co-ownership (rule 3); the new owner becomes a member and tenant-admin (rule 4). */
export async function grantOwnership(db: Db, input: { tenantId: string; userId: string; actor: string }) {
  const { tenantId, userId, actor } = input;
  await withTransactionRetry(db, async (tx) => {
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

export async function revokeOwnership(db: Db, input: { tenantId: string; userId: string; actor: string }) {
  const { tenantId, userId, actor } = input;
  await withTransactionRetry(db, async (tx) => {
    await lockTenant(tx, tenantId);
    if (!(await dropOwnership(tx, tenantId, userId, actor))) throw notFound('Owner', 'owner-not-found');
    await setMemberRole(tx, tenantId, userId, 'member');
  });
}
