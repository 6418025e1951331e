// The one live code of an EMAIL_OTP recipient and, once verified, its access token
// (signature_recipient_otps, one row per recipient).
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { signatureRecipientOtps } from '../schema/signature-instances';

export type SignatureRecipientOtpRow = typeof signatureRecipientOtps.$inferSelect;

/** The recipient's code row; `forUpdate` takes its row lock (verifying counts an attempt). */
export async function findSignatureRecipientOtp(db: DbOrTx, p: { recipientId: string; forUpdate?: boolean }): Promise<SignatureRecipientOtpRow | null> {
  const q = db.select().from(signatureRecipientOtps).where(eq(signatureRecipientOtps.recipientId, p.recipientId));
  const [otp] = p.forUpdate ? await q.for('update') : await q;
  return otp ?? null;
}

/**
 * A fresh code (no attempts yet) replaces the recipient's code unless the last one was sent after
 * `cooldownEnds`; false when the cooldown kept the old one.
 */
export async function issueSignatureRecipientOtp(
  db: DbOrTx,
  p: { recipientId: string; tenantId: string; codeHash: string; codeSalt: string; expiresAt: Date; sentAt: Date; cooldownEnds: Date },
): Promise<boolean> {
  const values = { codeHash: p.codeHash, codeSalt: p.codeSalt, attempts: 0, expiresAt: p.expiresAt, sentAt: p.sentAt };
  const issued = await db
    .insert(signatureRecipientOtps)
    .values({ recipientId: p.recipientId, tenantId: p.tenantId, ...values })
    .onConflictDoUpdate({
      target: signatureRecipientOtps.recipientId,
      set: values,
      setWhere: sql`${signatureRecipientOtps.sentAt} <= ${p.cooldownEnds.toISOString()}::timestamptz`,
    })
    .returning({ id: signatureRecipientOtps.id });
  return issued.length > 0;
}

export async function updateSignatureRecipientOtp(
  db: DbOrTx,
  p: { id: string; changes: Partial<Pick<SignatureRecipientOtpRow, 'codeHash' | 'codeSalt' | 'attempts' | 'accessTokenHash' | 'accessExpiresAt'>> },
): Promise<void> {
  await db.update(signatureRecipientOtps).set(p.changes).where(eq(signatureRecipientOtps.id, p.id));
}
