// The recipients of a campaign (signature_recipients): one per signer role, found by the SHA-256
// of their signing token. Personal data arrives sealed; no query here opens it.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { signatureInstances, signatureRecipients } from '../schema/signature-instances';
import type { SignatureInstanceRow } from './signature-instances';

export type SignatureRecipientRow = typeof signatureRecipients.$inferSelect;
export type NewSignatureRecipient = typeof signatureRecipients.$inferInsert;

/** The campaign's recipients by order group, then signer role. */
export async function listSignatureRecipients(db: DbOrTx, p: { instanceId: string }): Promise<SignatureRecipientRow[]> {
  return db
    .select()
    .from(signatureRecipients)
    .where(eq(signatureRecipients.instanceId, p.instanceId))
    .orderBy(asc(signatureRecipients.order), asc(signatureRecipients.signerId));
}

export async function findSignatureRecipient(db: DbOrTx, p: { instanceId: string; signerId: string }): Promise<SignatureRecipientRow | null> {
  const [recipient] = await db
    .select()
    .from(signatureRecipients)
    .where(and(eq(signatureRecipients.instanceId, p.instanceId), eq(signatureRecipients.signerId, p.signerId)));
  return recipient ?? null;
}

/** A recipient by id; `forUpdate` takes its row lock. */
export async function findSignatureRecipientById(db: DbOrTx, p: { id: string; forUpdate?: boolean }): Promise<SignatureRecipientRow | null> {
  const q = db.select().from(signatureRecipients).where(eq(signatureRecipients.id, p.id));
  const [row] = p.forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

/** The recipient holding a signing token (by its hash) and its campaign. */
export async function findSignerByTokenHash(
  db: DbOrTx,
  p: { tokenHash: string },
): Promise<{ recipient: SignatureRecipientRow; row: SignatureInstanceRow } | null> {
  const [found] = await db
    .select({ recipient: signatureRecipients, row: signatureInstances })
    .from(signatureRecipients)
    .innerJoin(signatureInstances, eq(signatureInstances.id, signatureRecipients.instanceId))
    .where(eq(signatureRecipients.tokenHash, p.tokenHash));
  return found ?? null;
}

export async function insertSignatureRecipients(db: DbOrTx, p: { rows: NewSignatureRecipient[] }): Promise<void> {
  await db.insert(signatureRecipients).values(p.rows);
}

/** The order group's waiting recipients R_WAITING → R_PENDING. */
export async function armSignatureRecipients(db: DbOrTx, p: { instanceId: string; order: number }): Promise<void> {
  await db
    .update(signatureRecipients)
    .set({ status: 'R_PENDING' })
    .where(and(eq(signatureRecipients.instanceId, p.instanceId), eq(signatureRecipients.order, p.order), eq(signatureRecipients.status, 'R_WAITING')));
}

export async function markSignatureRecipientReminded(db: DbOrTx, p: { id: string }): Promise<void> {
  await db.update(signatureRecipients).set({ lastRemindedAt: sql`now()` }).where(eq(signatureRecipients.id, p.id));
}

/** The outcome of the last mail; `deliveredAt` moves on a SENT one only. */
export async function recordSignatureRecipientDelivery(
  db: DbOrTx,
  p: { id: string; deliveryStatus: NonNullable<SignatureRecipientRow['deliveryStatus']>; deliveryError: string | null },
): Promise<void> {
  await db
    .update(signatureRecipients)
    .set({
      deliveryStatus: p.deliveryStatus,
      deliveryError: p.deliveryError,
      deliveredAt: p.deliveryStatus === 'SENT' ? sql`now()` : signatureRecipients.deliveredAt,
    })
    .where(eq(signatureRecipients.id, p.id));
}

/** R_PENDING → R_OPENED; false when the recipient was not R_PENDING any more. */
export async function markSignatureRecipientOpened(db: DbOrTx, p: { id: string }): Promise<boolean> {
  const [opened] = await db
    .update(signatureRecipients)
    .set({ status: 'R_OPENED', openedAt: sql`now()` })
    .where(and(eq(signatureRecipients.id, p.id), eq(signatureRecipients.status, 'R_PENDING')))
    .returning({ id: signatureRecipients.id });
  return opened !== undefined;
}

/** R_SIGNED now, with the marks' document ids and the sealed typed name and field values; `openedAt` now when it had none. */
export async function markSignatureRecipientSigned(
  db: DbOrTx,
  p: {
    id: string;
    openedAt: Date | null;
    signatureDocumentId: string | null;
    initialsDocumentId: string | null;
    typedNameSealed: string | null;
    fieldValuesSealed: string | null;
  },
): Promise<void> {
  await db
    .update(signatureRecipients)
    .set({
      status: 'R_SIGNED',
      signedAt: sql`now()`,
      openedAt: p.openedAt ?? sql`now()`,
      signatureDocumentId: p.signatureDocumentId,
      initialsDocumentId: p.initialsDocumentId,
      typedNameSealed: p.typedNameSealed,
      fieldValuesSealed: p.fieldValuesSealed,
    })
    .where(eq(signatureRecipients.id, p.id));
}
