import type { Db, DbOrTx, Tx } from '../../db/client';
import { insertAudit } from '../../db/queries/access-audit';
import { getCapability } from '../../db/queries/catalog';
import { deleteGrant, deleteUserGrants, getSubscription, listGrants, upsertGrant } from '../../db/queries/entitlements';
import { lockTenant, userNames } from '../../db/queries/membership';
import { getMember } from '../../db/queries/tenants';
import { withTransactionRetry } from '../../db/transaction-retry';
import type { Level } from '../../domain/access/levels';
import { requireMember } from '../../domain/access/members';
import { conflict, notFound } from '../../domain/errors';

export interface GrantInput {
  tenantId: string;
  userId: string;
  code: string;
  level: Level;
  actor: string;
  /** Audit context, e.g. the access request that led to this grant. */
  via?: Record<string, unknown>;
}

/**
 * The one path that sets a grant: direct grants and approvals both come through here.
 * 404 unknown capability, 409 tenant not subscribed (ACTIVE), 422 target not a member.
 * Takes the tenant lock before reading the membership (docs/access.md, Concurrency).
 */
export async function setGrant(tx: DbOrTx, g: GrantInput) {
  await lockTenant(tx, g.tenantId);
  const capability = await getCapability(tx, g.code);
  if (!capability) throw notFound(`Capability ${g.code}`, 'capability-not-found');
  const subscription = await getSubscription(tx, g.tenantId, g.code);
  if (subscription?.status !== 'ACTIVE') {
    throw conflict('tenant-not-subscribed', `Tenant has no ACTIVE subscription to ${g.code}`);
  }
  requireMember(await getMember(tx, g.tenantId, g.userId), g.userId);
  const grant = await upsertGrant(tx, g.tenantId, g.userId, g.code, g.level, g.actor);
  await insertAudit(tx, {
    tenantId: g.tenantId,
    actor: g.actor,
    action: 'grant.set',
    subjectUserId: g.userId,
    capabilityCode: g.code,
    detail: { level: g.level, ...g.via },
  });
  return { grant, capability };
}

/** A user's grants (with the subscription each depends on) and the user's directory name. */
export async function listUserGrants(db: Db, input: { tenantId: string; userId: string }) {
  const grants = await listGrants(db, input.tenantId, input.userId);
  const names = await userNames(db, [input.userId]);
  return { userName: names.get(input.userId) ?? null, grants };
}

/** A direct grant, in its own transaction; the grantee's name is read after it commits. */
export async function grantCapability(db: Db, g: GrantInput) {
  const { grant, capability } = await withTransactionRetry(db, (tx) => setGrant(tx, g));
  const names = await userNames(db, [g.userId]);
  return { grant, capability, userName: names.get(g.userId) ?? null };
}

export async function revokeGrant(db: Db, input: { tenantId: string; userId: string; code: string; actor: string }) {
  const { tenantId, userId, code, actor } = input;
  return withTransactionRetry(db, async (tx) => {
    const removed = await deleteGrant(tx, tenantId, userId, code);
    if (!removed) throw notFound(`Grant of ${code} to ${userId}`, 'grant-not-found');
    await insertAudit(tx, {
      tenantId,
      actor,
      action: 'grant.revoke',
      subjectUserId: userId,
      capabilityCode: code,
      detail: { level: removed.level },
    });
  });
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
