import type { Db, DbOrTx, Tx } from '../../db/client';
import { insertAudit } from '../../db/queries/access-audit';
import { getCapability } from '../../db/queries/catalog';
import { databaseNow, deleteGrant, deleteUserGrants, getSubscription, listGrants, lockGrant, upsertGrant } from '../../db/queries/entitlements';
import { lockTenant, userNames } from '../../db/queries/membership';
import { getMember } from '../../db/queries/tenants';
import { withTransactionRetry } from '../../db/transaction-retry';
import { GRANT_EXPIRY_ACTOR, requireFutureExpiry } from '../../domain/access/expiry';
import type { Level } from '../../domain/access/levels';
import { requireMember } from '../../domain/access/members';
import { conflict, notFound } from '../../domain/errors';
import { endGrantTimer, grantExpiryOf, scheduleGrantExpiry } from './grant-expiry';

export interface GrantInput {
  tenantId: string;
  userId: string;
  code: string;
  level: Level;
  actor: string;
  /** Audit context, e.g. the access request that led to this grant. */
  via?: Record<string, unknown>;
  /** When the grant ends (its timer revokes it then); absent or null: it lasts until revoked. */
  expiresAt?: Date | null | undefined;
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
  const previous = await lockGrant(tx, { tenantId: g.tenantId, userId: g.userId, code: g.code });
  const expiry = grantExpiryOf(previous, g.expiresAt ?? null);
  const grant = await upsertGrant(tx, g.tenantId, g.userId, g.code, g.level, g.actor, expiry);
  await insertAudit(tx, {
    tenantId: g.tenantId,
    actor: g.actor,
    action: 'grant.set',
    subjectUserId: g.userId,
    capabilityCode: g.code,
    detail: { level: g.level, ...(expiry.expiresAt ? { expiresAt: expiry.expiresAt.toISOString() } : {}), ...g.via },
  });
  await scheduleGrantExpiry(tx, { tenantId: g.tenantId, userId: g.userId, code: g.code }, previous?.expiryId ?? null, expiry);
  return { grant, capability };
}

/** A user's grants (with the subscription each depends on) and the user's directory name. */
export async function listUserGrants(db: Db, input: { tenantId: string; userId: string }) {
  const grants = await listGrants(db, input.tenantId, input.userId);
  const names = await userNames(db, [input.userId]);
  return { userName: names.get(input.userId) ?? null, grants };
}

/** A direct grant, in its own transaction; the grantee's name is read after it commits. 400 for an end not in the future. */
export async function grantCapability(db: Db, g: GrantInput & { now?: Date | undefined }) {
  requireFutureExpiry(g.expiresAt, g.now ?? new Date());
  const { grant, capability } = await withTransactionRetry(db, (tx) => setGrant(tx, g));
  const names = await userNames(db, [g.userId]);
  return { grant, capability, userName: names.get(g.userId) ?? null };
}

/** What a revoke did: `superseded` and `not-yet` only answer a timer's revoke (`expiryId` given). */
export type RevokeOutcome = { outcome: 'revoked' } | { outcome: 'superseded' } | { outcome: 'not-yet'; remainingMs: number };

/**
 * Revokes a grant: an owner's (404 `grant-not-found` when there is none), or its timer's, which
 * names the grant's `expiryId` and revokes only while the grant still carries it and its end has
 * passed by the database's clock (else `superseded` or `not-yet`, never an error). One path, so
 * both write the same audit row (a timer's with reason `expired`) and the same cache invalidation;
 * the grant's row lock lets exactly one of a racing pair revoke.
 */
export async function revokeGrant(
  db: Db,
  input: { tenantId: string; userId: string; code: string; actor: string; expiryId?: string | undefined },
): Promise<RevokeOutcome> {
  const { tenantId, userId, code, actor, expiryId } = input;
  return withTransactionRetry(db, async (tx) => {
    const grant = await lockGrant(tx, { tenantId, userId, code });
    if (expiryId !== undefined) {
      if (!grant || grant.expiryId !== expiryId || !grant.expiresAt) return { outcome: 'superseded' as const };
      const remainingMs = grant.expiresAt.getTime() - (await databaseNow(tx)).getTime();
      if (remainingMs > 0) return { outcome: 'not-yet' as const, remainingMs };
    } else if (!grant) {
      throw notFound(`Grant of ${code} to ${userId}`, 'grant-not-found');
    }
    await deleteGrant(tx, tenantId, userId, code);
    const ended = grant.expiresAt ? { expiresAt: grant.expiresAt.toISOString() } : {};
    await insertAudit(tx, {
      tenantId,
      actor,
      action: 'grant.revoke',
      subjectUserId: userId,
      capabilityCode: code,
      detail: { level: grant.level, ...ended, ...(expiryId !== undefined ? { reason: 'expired' } : {}) },
    });
    if (expiryId === undefined && grant.expiryId) await endGrantTimer(tx, tenantId, grant.expiryId);
    return { outcome: 'revoked' as const };
  });
}

/** The timer's revoke of a grant at its end (audit actor `system:grant-expiry`, reason `expired`). */
export const expireGrant = (db: Db, input: { tenantId: string; userId: string; code: string; expiryId: string }) =>
  revokeGrant(db, { ...input, actor: GRANT_EXPIRY_ACTOR });

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
