import type { Db } from '../../db/client';
import { addGroupMember, lockTenant, removeGroupMember } from '../../db/queries/membership';
import { getMember, getRoleGroup, insertRoleGroup, listGroupMembers, listRoleGroups } from '../../db/queries/tenants';
import { withTransactionRetry } from '../../db/transaction-retry';
import { roleGroupId } from '../../domain/access/groups';
import { requireMember } from '../../domain/access/members';
import { conflict, notFound } from '../../domain/errors';

/** A role group of a tenant, named as the tenant knows it. */
interface GroupRef {
  tenantId: string;
  name: string;
}

/** The tenant's role groups (candidate groups), never the ownership group. */
export async function listCandidateGroups(db: Db, input: { tenantId: string }) {
  return listRoleGroups(db, input.tenantId);
}

export async function createRoleGroup(db: Db, input: GroupRef & { description: string | null }) {
  const { tenantId, name, description } = input;
  const row = await insertRoleGroup(db, tenantId, roleGroupId(tenantId, name), name, description);
  if (!row) throw conflict('group-exists', `Group ${name} already exists`);
  return row;
}

export async function listRoleGroupMembers(db: Db, input: GroupRef) {
  const id = roleGroupId(input.tenantId, input.name);
  if (!(await getRoleGroup(db, input.tenantId, id))) throw notFound('Group', 'group-not-found');
  return listGroupMembers(db, id);
}

/** Adds a tenant member to a role group, under the tenant lock (docs/access.md, Concurrency). */
export async function addToRoleGroup(db: Db, input: GroupRef & { userId: string }) {
  const { tenantId, userId } = input;
  const groupId = roleGroupId(tenantId, input.name);
  await withTransactionRetry(db, async (tx) => {
    await lockTenant(tx, tenantId);
    if (!(await getRoleGroup(tx, tenantId, groupId))) throw notFound('Group', 'group-not-found');
    requireMember(await getMember(tx, tenantId, userId), userId);
    await addGroupMember(tx, groupId, userId);
  });
}

export async function removeFromRoleGroup(db: Db, input: GroupRef & { userId: string }) {
  const groupId = roleGroupId(input.tenantId, input.name);
  if (!(await getRoleGroup(db, input.tenantId, groupId))) throw notFound('Group', 'group-not-found');
  if (!(await removeGroupMember(db, groupId, input.userId))) throw notFound('Group member', 'group-member-not-found');
}
