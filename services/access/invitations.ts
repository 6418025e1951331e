import type { Db } from '../../db/client';
import { insertAudit } from '../../db/queries/access-audit';
import { consumeInvitation, type InvitationRow } from '../../db/queries/invitations';
import { addGroupMember, lockTenant } from '../../db/queries/membership';
import { insertMember } from '../../db/queries/tenants';
import { withTransactionRetry } from '../../db/transaction-retry';
import { ownerGroupId } from '../../domain/access/groups';
import { conflict } from '../../domain/errors';

/**
 * The caller becomes a member (and, for a tenant-admin invitation, an owner). Under the tenant
 * lock, so a removal of the same user runs wholly before or after it (docs/access.md, Concurrency).
 */
export async function acceptInvitation(db: Db, invitation: InvitationRow, userId: string) {
  const t = invitation.tenantId;
  await withTransactionRetry(db, async (tx) => {
    await lockTenant(tx, t);
    const consumed = await consumeInvitation(tx, invitation.id, userId);
    if (!consumed) throw conflict('invitation-used', 'This invitation has already been used');
    await insertMember(tx, t, userId, invitation.role, invitation.createdBy);
    await insertAudit(tx, { tenantId: t, actor: userId, action: 'invitation.accept', subjectUserId: userId, detail: { invitationId: invitation.id } });
    if (invitation.role === 'tenant-admin' && (await addGroupMember(tx, ownerGroupId(t), userId))) {
      await insertAudit(tx, { tenantId: t, actor: invitation.createdBy, action: 'owner.grant', subjectUserId: userId, detail: { via: 'invitation' } });
    }
  });
}
