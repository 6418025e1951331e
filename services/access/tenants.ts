import type { Db } from '../../db/client';
import { insertAudit } from '../../db/queries/access-audit';
import { addGroupMember } from '../../db/queries/membership';
import { insertMember, insertOwnershipGroup, insertTenant, tenantExists } from '../../db/queries/tenants';
import { ownerGroupId } from '../../domain/access/groups';
import { AppError, conflict } from '../../domain/errors';

/** The caller becomes the first member and owner (rule 3), all in one transaction. */
export async function createTenant(db: Db, input: { id: string; name: string; userId: string }) {
  const { id, name, userId } = input;
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

/** For callers that name a tenant outside the identity middleware (internal routes): 404 when it is not there. */
export async function requireTenant(db: Db, input: { tenantId: string }): Promise<void> {
  if (!(await tenantExists(db, input.tenantId))) throw new AppError('tenant-not-found', 'Tenant was not found');
}
