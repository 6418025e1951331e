import type { Db } from '../../db/client';
import { addGroupMember, lockTenant } from '../../db/queries/membership';
import { getMember, getRoleGroup } from '../../db/queries/tenants';
import { withTransactionRetry } from '../../db/transaction-retry';
import { requireMember } from '../../domain/access/members';
import { notFound } from '../../domain/errors';

/** Adds a tenant member to a role group, under the tenant lock (docs/access.md, Concurrency). */
export async function addToRoleGroup(db: Db, tenantId: string, groupId: string, userId: string) {
  await withTransactionRetry(db, async (tx) => {
    await lockTenant(tx, tenantId);
    if (!(await getRoleGroup(tx, tenantId, groupId))) throw notFound('Group', 'group-not-found');
    requireMember(await getMember(tx, tenantId, userId), userId);
    await addGroupMember(tx, groupId, userId);
  });
}
