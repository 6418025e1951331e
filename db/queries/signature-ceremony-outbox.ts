// The signing ceremony's own outbox start row, closed by the ceremony's last step.
import { and, eq, sql } from 'drizzle-orm';
import { SIGNATURES_CAPABILITY } from '../../domain/signatures/ceremony-process';
import type { DbOrTx } from '../client';
import { outbox } from '../schema/outbox';

/** The ceremony's start row → CLOSED; false when it was CLOSED already (a repeated close). */
export async function closeCeremonyStartRow(db: DbOrTx, p: { tenantId: string; instanceId: string }): Promise<boolean> {
  const closed = await db
    .update(outbox)
    .set({ state: 'CLOSED', updatedAt: sql`now()` })
    .where(
      and(
        eq(outbox.capability, SIGNATURES_CAPABILITY),
        eq(outbox.tenantId, p.tenantId),
        eq(outbox.businessKey, p.instanceId),
        eq(outbox.verb, 'start'),
        sql`${outbox.state} <> 'CLOSED'`,
      ),
    )
    .returning({ id: outbox.id });
  return closed.length > 0;
}
