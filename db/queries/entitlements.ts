import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { capabilities, capabilityGrants, capabilitySubscriptions } from '../schema/access';
import type { Level } from '../../domain/access/levels';
import { notifyAccessChanged } from './access-changed';

export async function listSubscriptions(db: DbOrTx, tenantId: string) {
  return db
    .select({
      capabilityCode: capabilitySubscriptions.capabilityCode,
      status: capabilitySubscriptions.status,
      updatedBy: capabilitySubscriptions.updatedBy,
      updatedAt: capabilitySubscriptions.updatedAt,
      capabilityName: capabilities.name,
      route: capabilities.route,
      icon: capabilities.icon,
      tier: capabilities.tier,
      capabilityStatus: capabilities.status,
    })
    .from(capabilitySubscriptions)
    .innerJoin(capabilities, eq(capabilities.code, capabilitySubscriptions.capabilityCode))
    .where(eq(capabilitySubscriptions.tenantId, tenantId))
    .orderBy(asc(capabilitySubscriptions.capabilityCode));
}

export async function getSubscription(db: DbOrTx, tenantId: string, code: string) {
  const rows = await db
    .select()
    .from(capabilitySubscriptions)
    .where(and(eq(capabilitySubscriptions.tenantId, tenantId), eq(capabilitySubscriptions.capabilityCode, code)));
  return rows[0] ?? null;
}

export async function upsertSubscription(
  db: DbOrTx,
  tenantId: string,
  code: string,
  status: 'ACTIVE' | 'SUSPENDED',
  by: string,
) {
  const rows = await db
    .insert(capabilitySubscriptions)
    .values({ tenantId, capabilityCode: code, status, updatedBy: by })
    .onConflictDoUpdate({
      target: [capabilitySubscriptions.tenantId, capabilitySubscriptions.capabilityCode],
      set: { status, updatedBy: by, updatedAt: sql`now()` },
    })
    .returning();
  await notifyAccessChanged(db, tenantId);
  return rows[0]!;
}

export async function deleteSubscription(db: DbOrTx, tenantId: string, code: string) {
  const rows = await db
    .delete(capabilitySubscriptions)
    .where(and(eq(capabilitySubscriptions.tenantId, tenantId), eq(capabilitySubscriptions.capabilityCode, code)))
    .returning();
  await notifyAccessChanged(db, tenantId);
  return rows.length > 0;
}

export async function listGrants(db: DbOrTx, tenantId: string, userId: string) {
  return db
    .select({
      capabilityCode: capabilityGrants.capabilityCode,
      level: capabilityGrants.level,
      grantedBy: capabilityGrants.grantedBy,
      grantedAt: capabilityGrants.grantedAt,
      expiresAt: capabilityGrants.expiresAt,
      capabilityName: capabilities.name,
      subscription: capabilitySubscriptions.status,
    })
    .from(capabilityGrants)
    .innerJoin(capabilities, eq(capabilities.code, capabilityGrants.capabilityCode))
    .leftJoin(
      capabilitySubscriptions,
      and(
        eq(capabilitySubscriptions.tenantId, capabilityGrants.tenantId),
        eq(capabilitySubscriptions.capabilityCode, capabilityGrants.capabilityCode),
      ),
    )
    .where(and(eq(capabilityGrants.tenantId, tenantId), eq(capabilityGrants.userId, userId)))
    .orderBy(asc(capabilityGrants.capabilityCode));
}

export async function getGrant(db: DbOrTx, tenantId: string, userId: string, code: string) {
  const rows = await db
    .select()
    .from(capabilityGrants)
    .where(
      and(
        eq(capabilityGrants.tenantId, tenantId),
        eq(capabilityGrants.userId, userId),
        eq(capabilityGrants.capabilityCode, code),
      ),
    );
  return rows[0] ?? null;
}

/** A grant's end and the timer that revokes it at that end (both null: the grant lasts until revoked). */
export interface GrantExpiryColumns {
  expiresAt: Date | null;
  expiryId: string | null;
}

export async function upsertGrant(
  db: DbOrTx,
  tenantId: string,
  userId: string,
  code: string,
  level: Level,
  by: string,
  expiry: GrantExpiryColumns = { expiresAt: null, expiryId: null },
) {
  const rows = await db
    .insert(capabilityGrants)
    .values({ tenantId, userId, capabilityCode: code, level, grantedBy: by, ...expiry })
    .onConflictDoUpdate({
      target: [capabilityGrants.tenantId, capabilityGrants.userId, capabilityGrants.capabilityCode],
      set: { level, grantedBy: by, grantedAt: sql`now()`, ...expiry },
    })
    .returning();
  await notifyAccessChanged(db, tenantId);
  return rows[0]!;
}

export async function deleteGrant(db: DbOrTx, tenantId: string, userId: string, code: string) {
  const rows = await db
    .delete(capabilityGrants)
    .where(
      and(
        eq(capabilityGrants.tenantId, tenantId),
        eq(capabilityGrants.userId, userId),
        eq(capabilityGrants.capabilityCode, code),
      ),
    )
    .returning();
  await notifyAccessChanged(db, tenantId);
  return rows[0] ?? null;
}

/** The grant, locked for this transaction (a revoke and its timer, or two writes, take turns). */
export async function lockGrant(db: DbOrTx, { tenantId, userId, code }: { tenantId: string; userId: string; code: string }) {
  const rows = await db
    .select()
    .from(capabilityGrants)
    .where(and(eq(capabilityGrants.tenantId, tenantId), eq(capabilityGrants.userId, userId), eq(capabilityGrants.capabilityCode, code)))
    .for('update');
  return rows[0] ?? null;
}

/** The database's clock, so an expiry is judged by one clock whatever node asks. */
export async function databaseNow(db: DbOrTx): Promise<Date> {
  const rows = await db.execute<{ now: string | Date }>(sql`select now() as now`);
  return new Date(rows[0]!.now);
}

export async function deleteUserGrants(db: DbOrTx, tenantId: string, userId: string) {
  await notifyAccessChanged(db, tenantId);
  return db
    .delete(capabilityGrants)
    .where(and(eq(capabilityGrants.tenantId, tenantId), eq(capabilityGrants.userId, userId)))
    .returning();
}
