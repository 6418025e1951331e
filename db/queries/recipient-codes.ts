// form_recipient_otps: the one live code of an outbound instance and, once verified, the access
// token of the recipient's session (both stored only as hashes).
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { formRecipientOtps } from '../schema/forms';

export type RecipientCodeRow = typeof formRecipientOtps.$inferSelect;
export type RecipientCodeChanges = Partial<
  Pick<RecipientCodeRow, 'codeHash' | 'codeSalt' | 'attempts' | 'accessTokenHash' | 'accessExpiresAt'>
>;

/**
 * Issues a new code (attempts 0) unless the instance's last code was sent after `cooldownEnds`;
 * one atomic upsert decides, so parallel requests issue one. Answers whether it issued.
 */
export async function issueRecipientCode(
  db: DbOrTx,
  p: { instanceId: string; tenantId: string; codeHash: string; codeSalt: string; expiresAt: Date; sentAt: Date; cooldownEnds: Date },
): Promise<boolean> {
  const { instanceId, tenantId, codeHash, codeSalt, expiresAt, sentAt, cooldownEnds } = p;
  const issued = await db
    .insert(formRecipientOtps)
    .values({ instanceId, tenantId, codeHash, codeSalt, attempts: 0, expiresAt, sentAt })
    .onConflictDoUpdate({
      target: formRecipientOtps.instanceId,
      set: { codeHash, codeSalt, attempts: 0, expiresAt, sentAt },
      setWhere: sql`${formRecipientOtps.sentAt} <= ${cooldownEnds.toISOString()}::timestamptz`,
    })
    .returning({ id: formRecipientOtps.id });
  return issued.length > 0;
}

/** The instance's code row; `forUpdate` takes its row lock. */
export async function findRecipientCode(db: DbOrTx, p: { instanceId: string; forUpdate?: boolean }): Promise<RecipientCodeRow | null> {
  const query = db.select().from(formRecipientOtps).where(eq(formRecipientOtps.instanceId, p.instanceId));
  const rows = p.forUpdate ? await query.for('update') : await query;
  return rows[0] ?? null;
}

export async function updateRecipientCode(db: DbOrTx, p: { id: string; changes: RecipientCodeChanges }): Promise<void> {
  await db.update(formRecipientOtps).set(p.changes).where(eq(formRecipientOtps.id, p.id));
}
