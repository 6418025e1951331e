// The rows of the forms event rail: claiming due events, their outcomes, and the per-instance view.
import { afterFailedAttempt } from '../../domain/retry-backoff';
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { failedAttemptColumns } from '../../db/outbox';
import { formEventOutbox, formEventSubscriptions } from '../../db/schema/form-events';

export type FormEventRow = typeof formEventOutbox.$inferSelect;

/** NOTIFY channel the form_instances triggers wake correlators on. */
export const FORM_EVENT_CHANNEL = 'form_event_ready';

/**
 * Claims due events; SKIP LOCKED lets any number of correlators share the table. An event waits
 * while an earlier event of its instance is still QUEUED, so the deliveries of one instance are
 * enqueued in the order its changes committed (and the outbox keeps that order per workflow).
 */
export async function claimDueEvents(tx: Tx, limit: number): Promise<FormEventRow[]> {
  const t = formEventOutbox;
  return tx
    .select()
    .from(t)
    .where(
      and(
        eq(t.state, 'QUEUED'),
        lte(t.nextAttemptAt, sql`now()`),
        sql`not exists (select 1 from ${t} as earlier where earlier.instance_id = ${t.instanceId}
              and earlier.state = 'QUEUED' and earlier.seq < ${t.seq})`,
      ),
    )
    .orderBy(asc(t.seq))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markEventDelivered(tx: DbOrTx, id: string, deliveries: number) {
  await tx
    .update(formEventOutbox)
    .set({ state: deliveries > 0 ? 'SENT' : 'SKIPPED', deliveries, lastError: null, updatedAt: sql`now()` })
    .where(eq(formEventOutbox.id, id));
}

/** Counts a failed attempt: QUEUED again after a backoff, or FAILED at `maxAttempts`. Answers whether it FAILED. */
export async function markEventAttemptFailed(tx: DbOrTx, row: FormEventRow, error: string, maxAttempts: number, backoffMs: number) {
  const next = afterFailedAttempt(row.retryCount, maxAttempts, backoffMs);
  await tx.update(formEventOutbox).set(failedAttemptColumns(next, error)).where(eq(formEventOutbox.id, row.id));
  return next.failed;
}

export async function subscribersOf(db: DbOrTx, tenantId: string, formCode: string, eventType: string) {
  const s = formEventSubscriptions;
  return db
    .select({ id: s.id, workflowType: s.workflowType })
    .from(s)
    .where(and(eq(s.tenantId, tenantId), eq(s.formCode, formCode), eq(s.eventType, eventType)))
    .orderBy(asc(s.createdAt), asc(s.id));
}

/** The instance's events, oldest first (its API view). */
export async function eventsOfInstance(db: DbOrTx, tenantId: string, instanceId: string) {
  const t = formEventOutbox;
  return db
    .select({ id: t.id, eventType: t.eventType, state: t.state, retryCount: t.retryCount })
    .from(t)
    .where(and(eq(t.tenantId, tenantId), eq(t.instanceId, instanceId)))
    .orderBy(asc(t.seq));
}
