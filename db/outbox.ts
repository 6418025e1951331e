import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from './client';
import { outbox } from './schema/outbox';

export const OUTBOX_CHANNEL = 'outbox_ready';

export type OutboxRow = typeof outbox.$inferSelect;

export interface OutboxEntry {
  capability: string;
  tenantId: string;
  businessKey: string;
  workflowType: string;
  args?: unknown[];
  taskQueue?: string;
}

/** DESIGN: workflow ids are `<capability>:<tenant>:<key>`; deterministic, so a repeated start is a no-op. */
export const workflowIdFor = (capability: string, tenantId: string, businessKey: string) =>
  `${capability.toLowerCase()}:${tenantId}:${businessKey}`;

/**
 * Writes the outbox row inside the caller's transaction, next to the business row. The NOTIFY
 * is transactional too: dispatchers are woken only once the row is visible.
 */
export async function enqueueOutbox(tx: DbOrTx, e: OutboxEntry) {
  const rows = await tx
    .insert(outbox)
    .values({
      capability: e.capability,
      tenantId: e.tenantId,
      businessKey: e.businessKey,
      workflowType: e.workflowType,
      workflowId: workflowIdFor(e.capability, e.tenantId, e.businessKey),
      taskQueue: e.taskQueue ?? null,
      args: e.args ?? [],
    })
    .onConflictDoNothing()
    .returning();
  await tx.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, ${e.capability})`);
  return rows[0] ?? null;
}

/** Claims due rows; SKIP LOCKED lets any number of dispatchers share the table. */
export async function claimDueRows(tx: Tx, capabilities: readonly string[], limit: number) {
  if (capabilities.length === 0) return [];
  return tx
    .select()
    .from(outbox)
    .where(
      and(
        eq(outbox.state, 'QUEUED'),
        lte(outbox.nextAttemptAt, sql`now()`),
        inArray(outbox.capability, [...capabilities]),
      ),
    )
    .orderBy(asc(outbox.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markStarted(tx: DbOrTx, id: string, runId: string | null) {
  await tx
    .update(outbox)
    .set({ state: 'STARTED', processInstanceId: runId, lastError: null, updatedAt: sql`now()` })
    .where(eq(outbox.id, id));
}

export async function markAttemptFailed(
  tx: DbOrTx,
  row: OutboxRow,
  error: string,
  maxAttempts: number,
  backoffMs: number,
) {
  const attempts = row.retryCount + 1;
  const failed = attempts >= maxAttempts;
  // Exponential backoff with full jitter, capped at ten minutes.
  const delay = Math.min(backoffMs * 2 ** (attempts - 1), 600_000) * (0.5 + Math.random() / 2);
  await tx
    .update(outbox)
    .set({
      state: failed ? 'FAILED' : 'QUEUED',
      retryCount: attempts,
      lastError: error.slice(0, 2000),
      nextAttemptAt: sql`now() + make_interval(secs => ${delay / 1000})`,
      updatedAt: sql`now()`,
    })
    .where(eq(outbox.id, row.id));
  return failed;
}

/** The process reached its end: STARTED → CLOSED (idempotent). */
export async function closeOutbox(db: DbOrTx, capability: string, tenantId: string, businessKey: string) {
  const rows = await db
    .update(outbox)
    .set({ state: 'CLOSED', updatedAt: sql`now()` })
    .where(and(eq(outbox.capability, capability), eq(outbox.tenantId, tenantId), eq(outbox.businessKey, businessKey)))
    .returning({ id: outbox.id });
  return rows.length > 0;
}

export async function getOutboxRow(db: DbOrTx, capability: string, tenantId: string, businessKey: string) {
  const rows = await db
    .select()
    .from(outbox)
    .where(and(eq(outbox.capability, capability), eq(outbox.tenantId, tenantId), eq(outbox.businessKey, businessKey)));
  return rows[0] ?? null;
}
