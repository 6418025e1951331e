// The campaigns (signature_instances). The tenant's reads filter by tenant; the ceremony's and the
// signer's steps address a row by the id they already hold.
import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { KeysetPosition } from '../../domain/keyset-cursor';
import type { SignatureInstanceState } from '../../domain/signatures/instance-states';
import type { DbOrTx } from '../client';
import { signatureInstances } from '../schema/signature-instances';
import { afterKeyset, keysetTimestamp } from './keyset';

export type SignatureInstanceRow = typeof signatureInstances.$inferSelect;
export type NewSignatureInstance = typeof signatureInstances.$inferInsert;

/** A campaign of the tenant; `forUpdate` takes its row lock, which serialises the tenant's steps on it. */
export async function findSignatureInstance(db: DbOrTx, p: { tenantId: string; id: string; forUpdate?: boolean }): Promise<SignatureInstanceRow | null> {
  const q = db
    .select()
    .from(signatureInstances)
    .where(and(eq(signatureInstances.tenantId, p.tenantId), eq(signatureInstances.id, p.id)));
  const [row] = p.forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

/** A campaign by its id alone (the signer's token already named it); `forUpdate` takes its row lock. */
export async function findSignatureInstanceById(db: DbOrTx, p: { id: string; forUpdate?: boolean }): Promise<SignatureInstanceRow | null> {
  const q = db.select().from(signatureInstances).where(eq(signatureInstances.id, p.id));
  const [row] = p.forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

/** The campaign an earlier try of a starting activity created under `startKey`. */
export async function findSignatureInstanceIdByStartKey(db: DbOrTx, p: { tenantId: string; startKey: string }): Promise<string | null> {
  const [earlier] = await db
    .select({ id: signatureInstances.id })
    .from(signatureInstances)
    .where(and(eq(signatureInstances.tenantId, p.tenantId), eq(signatureInstances.startKey, p.startKey)));
  return earlier?.id ?? null;
}

/** Newest first, keyset-paged by (createdAt, id); `cursorAt` is the row's position for the next page's cursor. */
export async function listSignatureInstances(
  db: DbOrTx,
  p: { tenantId: string; status?: SignatureInstanceState; definitionId?: string; before: KeysetPosition | null; limit: number },
): Promise<Array<SignatureInstanceRow & { cursorAt: string }>> {
  const t = signatureInstances;
  return db
    .select({ ...getTableColumns(t), cursorAt: keysetTimestamp(t.createdAt) })
    .from(t)
    .where(
      and(
        eq(t.tenantId, p.tenantId),
        p.status ? eq(t.status, p.status) : undefined,
        p.definitionId ? eq(t.definitionId, p.definitionId) : undefined,
        p.before ? afterKeyset(t, p.before, 'desc') : undefined,
      ),
    )
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(p.limit);
}

/** The new campaign's id. */
export async function insertSignatureInstance(db: DbOrTx, p: NewSignatureInstance): Promise<string> {
  const [row] = await db.insert(signatureInstances).values(p).returning({ id: signatureInstances.id });
  return row!.id;
}

/** CANCELLED now; the row as it is after (the caller holds its lock). */
export async function cancelSignatureInstance(db: DbOrTx, p: { id: string }): Promise<SignatureInstanceRow> {
  const [updated] = await db
    .update(signatureInstances)
    .set({ status: 'CANCELLED', cancelledAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(signatureInstances.id, p.id))
    .returning();
  return updated!;
}

/** A live (PENDING, OPENED) campaign becomes EXPIRED; false when it was not live. */
export async function expireSignatureInstance(db: DbOrTx, p: { tenantId: string; id: string }): Promise<boolean> {
  const [expired] = await db
    .update(signatureInstances)
    .set({ status: 'EXPIRED', updatedAt: sql`now()` })
    .where(and(eq(signatureInstances.id, p.id), eq(signatureInstances.tenantId, p.tenantId), inArray(signatureInstances.status, ['PENDING', 'OPENED'])))
    .returning({ id: signatureInstances.id });
  return expired !== undefined;
}

/** PENDING → OPENED (a first recipient opened the session); any other status stays. */
export async function markSignatureInstanceOpened(db: DbOrTx, p: { id: string }): Promise<void> {
  await db
    .update(signatureInstances)
    .set({ status: 'OPENED', updatedAt: sql`now()` })
    .where(and(eq(signatureInstances.id, p.id), eq(signatureInstances.status, 'PENDING')));
}

/** After a signature: COMPLETED when it was the last one, OPENED otherwise; the row as it is after. */
export async function settleSignedInstance(db: DbOrTx, p: { id: string; complete: boolean }): Promise<SignatureInstanceRow> {
  const [updated] = await db
    .update(signatureInstances)
    .set(p.complete ? { status: 'COMPLETED', completedAt: sql`now()`, updatedAt: sql`now()` } : { status: 'OPENED', updatedAt: sql`now()` })
    .where(eq(signatureInstances.id, p.id))
    .returning();
  return updated!;
}

export async function markSignatureInstanceSealed(db: DbOrTx, p: { tenantId: string; id: string; sealedDocumentId: string }): Promise<void> {
  await db
    .update(signatureInstances)
    .set({ sealStatus: 'SEALED', sealError: null, sealedDocumentId: p.sealedDocumentId, updatedAt: sql`now()` })
    .where(and(eq(signatureInstances.id, p.id), eq(signatureInstances.tenantId, p.tenantId)));
}

export async function markSignatureInstanceSealFailed(db: DbOrTx, p: { tenantId: string; id: string; sealError: string }): Promise<void> {
  await db
    .update(signatureInstances)
    .set({ sealStatus: 'FAILED', sealError: p.sealError, updatedAt: sql`now()` })
    .where(and(eq(signatureInstances.id, p.id), eq(signatureInstances.tenantId, p.tenantId)));
}
