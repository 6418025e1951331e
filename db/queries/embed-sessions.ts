// embed_sessions: one row per embed attachment session (tenant, browser-minted processRef), its
// attachment count (the per-session cap) and the instance its uploads were linked to (set once).
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { embedSessions } from '../schema/embed-sessions';

export type EmbedSessionRow = typeof embedSessions.$inferSelect;

type SessionKey = { tenantId: string; processRef: string };

const sessionKey = (p: SessionKey) => and(eq(embedSessions.tenantId, p.tenantId), eq(embedSessions.processRef, p.processRef));

/**
 * Takes one attachment slot in one atomic upsert (the row is created on the first upload), unless
 * the session is linked, belongs to another definition or holds `cap` already. Answers whether it took one.
 */
export async function takeAttachmentSlot(db: DbOrTx, p: SessionKey & { definitionId: string; cap: number }): Promise<boolean> {
  const taken = await db
    .insert(embedSessions)
    .values({ tenantId: p.tenantId, processRef: p.processRef, definitionId: p.definitionId, attachments: 1 })
    .onConflictDoUpdate({
      target: [embedSessions.tenantId, embedSessions.processRef],
      set: { attachments: sql`${embedSessions.attachments} + 1`, updatedAt: sql`now()` },
      setWhere: and(
        sql`${embedSessions.attachments} < ${p.cap}`,
        isNull(embedSessions.linkedInstanceId),
        eq(embedSessions.definitionId, p.definitionId),
      ),
    })
    .returning({ attachments: embedSessions.attachments });
  return taken.length > 0;
}

/** Gives a slot back (never below zero). */
export async function releaseAttachmentSlot(db: DbOrTx, p: SessionKey): Promise<void> {
  await db
    .update(embedSessions)
    .set({ attachments: sql`greatest(${embedSessions.attachments} - 1, 0)`, updatedAt: sql`now()` })
    .where(sessionKey(p));
}

export async function findEmbedSession(db: DbOrTx, p: SessionKey): Promise<EmbedSessionRow | null> {
  const rows = await db.select().from(embedSessions).where(sessionKey(p));
  return rows[0] ?? null;
}

/** Creates the session row unless it exists (a session that links without having uploaded). */
export async function insertEmbedSessionIfAbsent(db: DbOrTx, p: SessionKey & { definitionId: string }): Promise<void> {
  await db
    .insert(embedSessions)
    .values({ tenantId: p.tenantId, processRef: p.processRef, definitionId: p.definitionId })
    .onConflictDoNothing();
}

/** Sets the linked instance once, on a session of this definition; answers whether it did. */
export async function linkEmbedSession(db: DbOrTx, p: SessionKey & { definitionId: string; instanceId: string }): Promise<boolean> {
  const switched = await db
    .update(embedSessions)
    .set({ linkedInstanceId: p.instanceId, updatedAt: sql`now()` })
    .where(and(sessionKey(p), isNull(embedSessions.linkedInstanceId), eq(embedSessions.definitionId, p.definitionId)))
    .returning({ processRef: embedSessions.processRef });
  return switched.length > 0;
}
