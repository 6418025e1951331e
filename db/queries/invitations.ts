import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { invitations } from '../schema/access';

export type InvitationRow = typeof invitations.$inferSelect;

export async function insertInvitation(db: DbOrTx, v: typeof invitations.$inferInsert) {
  const rows = await db.insert(invitations).values(v).returning();
  return rows[0]!;
}

export async function listInvitations(db: DbOrTx, tenantId: string) {
  return db
    .select()
    .from(invitations)
    .where(eq(invitations.tenantId, tenantId))
    .orderBy(desc(invitations.createdAt));
}

export async function revokeInvitation(db: DbOrTx, tenantId: string, id: string) {
  const rows = await db
    .update(invitations)
    .set({ revokedAt: sql`now()` })
    .where(
      and(eq(invitations.tenantId, tenantId), eq(invitations.id, id), isNull(invitations.revokedAt), isNull(invitations.acceptedAt)),
    )
    .returning();
  return rows[0] ?? null;
}

export async function findInvitationByHash(db: DbOrTx, tokenHash: string) {
  const rows = await db.select().from(invitations).where(eq(invitations.tokenHash, tokenHash));
  return rows[0] ?? null;
}

/** Consumes a usable token exactly once; null when it was used, revoked or expired meanwhile. */
export async function consumeInvitation(db: DbOrTx, id: string, userId: string) {
  const rows = await db
    .update(invitations)
    .set({ acceptedBy: userId, acceptedAt: sql`now()` })
    .where(
      and(
        eq(invitations.id, id),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        sql`${invitations.expiresAt} > now()`,
      ),
    )
    .returning();
  return rows[0] ?? null;
}
