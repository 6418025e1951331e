import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { accessAudit, accessRequests } from '../schema/access';
import { REQUEST_EXPIRY_ACTOR } from '../../domain/access/expiry';
import type { Level } from '../../domain/access/levels';

export type AccessRequestRow = typeof accessRequests.$inferSelect;
export type AccessRequestStatus = AccessRequestRow['status'];

/** Returns null when an open request already exists (the partial unique index decides races). */
export async function insertAccessRequest(
  db: DbOrTx,
  v: { tenantId: string; userId: string; capabilityCode: string; requestedLevel: Level; note: string | null; requestedDurationDays?: number | null },
) {
  const rows = await db
    .insert(accessRequests)
    .values(v)
    .onConflictDoNothing({
      target: [accessRequests.tenantId, accessRequests.userId, accessRequests.capabilityCode],
      where: sql`status = 'PENDING'`,
    })
    .returning();
  return rows[0] ?? null;
}

export async function getAccessRequest(db: DbOrTx, tenantId: string, id: string) {
  const rows = await db
    .select()
    .from(accessRequests)
    .where(and(eq(accessRequests.tenantId, tenantId), eq(accessRequests.id, id)));
  return rows[0] ?? null;
}

export async function listAccessRequests(
  db: DbOrTx,
  tenantId: string,
  filter: { userId?: string; status?: AccessRequestStatus },
) {
  return db
    .select()
    .from(accessRequests)
    .where(
      and(
        eq(accessRequests.tenantId, tenantId),
        filter.userId ? eq(accessRequests.userId, filter.userId) : undefined,
        filter.status ? eq(accessRequests.status, filter.status) : undefined,
      ),
    )
    .orderBy(desc(accessRequests.createdAt), desc(accessRequests.id));
}

/**
 * Moves a PENDING request to its decided state; null when it is no longer PENDING (so two
 * concurrent decisions yield exactly one winner).
 */
export async function decideAccessRequest(
  db: DbOrTx,
  tenantId: string,
  id: string,
  v: {
    status: Exclude<AccessRequestStatus, 'PENDING'>;
    decidedBy: string;
    decisionNote?: string | null;
    grantedLevel?: Level | null;
  },
) {
  const rows = await db
    .update(accessRequests)
    .set({
      status: v.status,
      decidedBy: v.decidedBy,
      decisionNote: v.decisionNote ?? null,
      grantedLevel: v.grantedLevel ?? null,
      decidedAt: sql`now()`,
    })
    .where(and(eq(accessRequests.tenantId, tenantId), eq(accessRequests.id, id), eq(accessRequests.status, 'PENDING')))
    .returning();
  return rows[0] ?? null;
}

/** A removed member's open requests are cancelled with them. */
export async function cancelOpenRequestsOf(db: DbOrTx, tenantId: string, userId: string, by: string) {
  await db
    .update(accessRequests)
    .set({ status: 'CANCELLED', decidedBy: by, decidedAt: sql`now()` })
    .where(
      and(eq(accessRequests.tenantId, tenantId), eq(accessRequests.userId, userId), eq(accessRequests.status, 'PENDING')),
    );
}

/** Which PENDING requests an expiry looks at: a tenant's (one user's, one capability's, one request), or a batch of any. */
export type OverdueRequestScope =
  | { tenantId: string; userId?: string; capabilityCode?: string; id?: string }
  | { batchSize: number };

/**
 * Moves PENDING requests created more than `ttlDays` ago (by the database's clock) to EXPIRED,
 * with one `request.expire` audit row each, in one statement. A batch takes the oldest first and
 * skips rows another transaction holds. Returns the tenant of each request expired.
 */
export async function expireOverdueRequests(db: DbOrTx, params: { ttlDays: number; scope: OverdueRequestScope }): Promise<string[]> {
  const { ttlDays, scope } = params;
  const overdue = sql`${accessRequests.status} = 'PENDING' and ${accessRequests.createdAt} < now() - make_interval(days => ${ttlDays})`;
  let where: SQL;
  if ('batchSize' in scope) {
    where = sql`${accessRequests.id} in (select id from ${accessRequests} where ${overdue}
      order by ${accessRequests.createdAt} limit ${scope.batchSize} for update skip locked)`;
  } else {
    const filters = [eq(accessRequests.tenantId, scope.tenantId), overdue];
    if (scope.userId !== undefined) filters.push(eq(accessRequests.userId, scope.userId));
    if (scope.capabilityCode !== undefined) filters.push(eq(accessRequests.capabilityCode, scope.capabilityCode));
    if (scope.id !== undefined) filters.push(eq(accessRequests.id, scope.id));
    where = and(...filters)!;
  }
  const rows = await db.execute<{ tenant_id: string }>(sql`
    with expired as (
      update ${accessRequests} set status = 'EXPIRED', decided_at = now()
      where ${where}
      returning id, tenant_id, user_id, capability_code
    ), audited as (
      insert into ${accessAudit} (tenant_id, actor, action, subject_user_id, capability_code, detail)
      select tenant_id, ${REQUEST_EXPIRY_ACTOR}, 'request.expire', user_id, capability_code,
        jsonb_build_object('accessRequestId', id, 'reason', 'expired', 'ttlDays', ${ttlDays}::int)
      from expired
    )
    select tenant_id from expired`);
  return rows.map((r) => r.tenant_id);
}
