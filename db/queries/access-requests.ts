import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { accessRequests } from '../schema/access';
import type { Level } from '../../domain/access/levels';

export type AccessRequestRow = typeof accessRequests.$inferSelect;
export type AccessRequestStatus = AccessRequestRow['status'];

/** Returns null when an open request already exists (the partial unique index decides races). */
export async function insertAccessRequest(
  db: DbOrTx,
  v: { tenantId: string; userId: string; capabilityCode: string; requestedLevel: Level; note: string | null },
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
