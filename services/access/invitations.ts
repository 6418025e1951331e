import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { insertAudit } from '../../db/queries/access-audit';
import {
  consumeInvitation,
  findInvitationByHash,
  insertInvitation,
  listInvitations,
  revokeInvitation as markInvitationRevoked,
  type InvitationRow,
} from '../../db/queries/invitations';
import { addGroupMember, lockTenant } from '../../db/queries/membership';
import { insertMember } from '../../db/queries/tenants';
import { withTransactionRetry } from '../../db/transaction-retry';
import { ownerGroupId } from '../../domain/access/groups';
import { AppError, conflict, notFound } from '../../domain/errors';
import type { Settings } from '../../domain/settings';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The tenant's invitations, newest first (only token hashes are stored: tokens are never shown again). */
export async function listTenantInvitations(db: Db, input: { tenantId: string }) {
  return listInvitations(db, input.tenantId);
}

/**
 * A new invitation and its token, returned this once: only its hash is stored. It works once,
 * until `now` plus the configured lifetime.
 */
export async function createInvitation(
  deps: { db: Db; settings: Pick<Settings, 'access.invitation-ttl-hours'> },
  input: { tenantId: string; email: string | null; role: InvitationRow['role']; actor: string; now: Date },
) {
  const { tenantId, role, actor } = input;
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(input.now.getTime() + deps.settings['access.invitation-ttl-hours'] * 3_600_000);
  const invitation = await deps.db.transaction(async (tx) => {
    const inv = await insertInvitation(tx, {
      tenantId,
      tokenHash: hashToken(token),
      email: input.email,
      role,
      createdBy: actor,
      expiresAt,
    });
    await insertAudit(tx, { tenantId, actor, action: 'invitation.create', detail: { invitationId: inv.id, role } });
    return inv;
  });
  return { invitation, token };
}

/** Revokes an unused invitation: 404 when it is unknown, used or already revoked. */
export async function revokeInvitation(db: Db, input: { tenantId: string; id: string }) {
  if (!(await markInvitationRevoked(db, input.tenantId, input.id))) {
    throw notFound('Open invitation', 'invitation-not-found');
  }
}

/**
 * The caller becomes a member (and, for a tenant-admin invitation, an owner). 404 for an unknown
 * or revoked token, 409 once used, 410 once expired. Under the tenant lock, so a removal of the
 * same user runs wholly before or after it (docs/access.md, Concurrency).
 */
export async function acceptInvitation(db: Db, input: { token: string; userId: string; now: Date }) {
  const { userId } = input;
  const invitation = await findInvitationByHash(db, hashToken(input.token));
  if (!invitation || invitation.revokedAt) throw notFound('Invitation', 'invitation-not-found');
  if (invitation.acceptedAt) throw conflict('invitation-used', 'This invitation has already been used');
  if (invitation.expiresAt <= input.now) {
    throw new AppError('invitation-expired', 'This invitation has expired');
  }
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
  return { tenantId: t, role: invitation.role };
}
