// The download links of sealed campaigns (signature_copy_links): one per signer and one for the
// sender, found by the SHA-256 of their token. The token arrives sealed; no query here opens it.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { signatureCopyLinks, signatureInstances } from '../schema/signature-instances';
import type { SignatureInstanceRow } from './signature-instances';

export type SignatureCopyLinkRow = typeof signatureCopyLinks.$inferSelect;
export type NewSignatureCopyLink = typeof signatureCopyLinks.$inferInsert;

/** Inserts the links a campaign lacks; a holder that has one keeps it (its token and expiry). */
export async function ensureSignatureCopyLinks(db: DbOrTx, p: { rows: NewSignatureCopyLink[] }): Promise<void> {
  if (p.rows.length === 0) return;
  await db
    .insert(signatureCopyLinks)
    .values(p.rows)
    // The only conflict a new random token can meet is the holder's unique index.
    .onConflictDoNothing();
}

export async function listSignatureCopyLinks(db: DbOrTx, p: { instanceId: string }): Promise<SignatureCopyLinkRow[]> {
  return db.select().from(signatureCopyLinks).where(eq(signatureCopyLinks.instanceId, p.instanceId));
}

/** A signer's link (`signerId`), or the sender's (`signerId` null). */
export async function findSignatureCopyLink(db: DbOrTx, p: { instanceId: string; signerId: string | null }): Promise<SignatureCopyLinkRow | null> {
  const holder = p.signerId === null ? isNull(signatureCopyLinks.signerId) : eq(signatureCopyLinks.signerId, p.signerId);
  const [row] = await db.select().from(signatureCopyLinks).where(and(eq(signatureCopyLinks.instanceId, p.instanceId), holder));
  return row ?? null;
}

export async function findSignatureCopyLinkByTokenHash(db: DbOrTx, p: { tokenHash: string }): Promise<{ link: SignatureCopyLinkRow; row: SignatureInstanceRow } | null> {
  const [found] = await db
    .select({ link: signatureCopyLinks, row: signatureInstances })
    .from(signatureCopyLinks)
    .innerJoin(signatureInstances, eq(signatureInstances.id, signatureCopyLinks.instanceId))
    .where(eq(signatureCopyLinks.tokenHash, p.tokenHash));
  return found ?? null;
}

export async function recordSignatureCopyDelivery(
  db: DbOrTx,
  p: { id: string; deliveryStatus: NonNullable<SignatureCopyLinkRow['deliveryStatus']>; deliveryError: string | null },
): Promise<void> {
  await db
    .update(signatureCopyLinks)
    .set({ deliveryStatus: p.deliveryStatus, deliveryError: p.deliveryError, deliveredAt: p.deliveryStatus === 'SENT' ? sql`now()` : null })
    .where(eq(signatureCopyLinks.id, p.id));
}
