// The forms intake's start row in the outbox, queued again by hand (an administrative retry).
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../client';
import { OUTBOX_CHANNEL } from '../outbox';
import { outbox } from '../schema/outbox';

/**
 * QUEUED again under `workflowId`, its attempts and outcome cleared, due now; then the
 * capability's dispatchers are woken (NOTIFY is delivered at commit).
 */
export async function requeueIntakeStart(tx: Tx, p: { id: string; workflowId: string; capability: string }): Promise<void> {
  await tx
    .update(outbox)
    .set({ state: 'QUEUED', workflowId: p.workflowId, retryCount: 0, lastError: null, processInstanceId: null, nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(outbox.id, p.id));
  await tx.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, ${p.capability})`);
}
