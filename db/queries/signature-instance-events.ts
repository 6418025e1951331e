// The ceremony's audit trail (signature_instance_events), append-only: the client arrives sealed.
import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { signatureInstanceEvents } from '../schema/signature-instances';

export type SignatureInstanceEventRow = typeof signatureInstanceEvents.$inferSelect;

export async function insertSignatureInstanceEvent(
  db: DbOrTx,
  p: { tenantId: string; instanceId: string; action: string; signerId: string | null; clientSealed: string | null; ipRisk: string | null; geo: string | null },
): Promise<void> {
  await db.insert(signatureInstanceEvents).values({
    tenantId: p.tenantId,
    instanceId: p.instanceId,
    action: p.action,
    signerId: p.signerId,
    clientSealed: p.clientSealed,
    ipRisk: p.ipRisk,
    geo: p.geo,
  });
}

/** The campaign's trail in the order it happened. */
export async function listSignatureInstanceEvents(db: DbOrTx, p: { instanceId: string }): Promise<SignatureInstanceEventRow[]> {
  return db.select().from(signatureInstanceEvents).where(eq(signatureInstanceEvents.instanceId, p.instanceId)).orderBy(asc(signatureInstanceEvents.id));
}
