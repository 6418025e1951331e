// The forms event rail's rows (form_event_outbox: claiming due events, their outcomes, the
// per-instance view) and the subscriptions that say which workflows each event starts.
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { afterFailedAttempt } from '../../domain/retry-backoff';
import type { DbOrTx, Tx } from '../client';
import { failedAttemptColumns } from '../outbox';
import { formEventOutbox, formEventSubscriptions } from '../schema/form-events';

export type FormEventRow = typeof formEventOutbox.$inferSelect;
export type FormEventSubscriptionRow = typeof formEventSubscriptions.$inferSelect;

/**
 * Claims due events; SKIP LOCKED lets any number of correlators share the table. An event waits
 * while an earlier event of its instance is still QUEUED, so the deliveries of one instance are
 * enqueued in the order its changes committed (and the outbox keeps that order per workflow).
 */
export async function claimDueEvents(tx: Tx, p: { limit: number }): Promise<FormEventRow[]> {
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
    .limit(p.limit)
    .for('update', { skipLocked: true });
}

export async function markEventDelivered(db: DbOrTx, p: { id: string; deliveries: number }): Promise<void> {
  await db
    .update(formEventOutbox)
    .set({ state: p.deliveries > 0 ? 'SENT' : 'SKIPPED', deliveries: p.deliveries, lastError: null, updatedAt: sql`now()` })
    .where(eq(formEventOutbox.id, p.id));
}

/** Counts a failed attempt: QUEUED again after a backoff, or FAILED at `maxAttempts`. Answers whether it FAILED. */
export async function markEventAttemptFailed(db: DbOrTx, p: { row: FormEventRow; error: string; maxAttempts: number; backoffMs: number }): Promise<boolean> {
  const next = afterFailedAttempt(p.row.retryCount, p.maxAttempts, p.backoffMs);
  await db.update(formEventOutbox).set(failedAttemptColumns(next, p.error)).where(eq(formEventOutbox.id, p.row.id));
  return next.failed;
}

/** The instance's events, oldest first (its API view). */
export async function listInstanceEvents(db: DbOrTx, p: { tenantId: string; instanceId: string }) {
  const t = formEventOutbox;
  return db
    .select({ id: t.id, eventType: t.eventType, state: t.state, retryCount: t.retryCount })
    .from(t)
    .where(and(eq(t.tenantId, p.tenantId), eq(t.instanceId, p.instanceId)))
    .orderBy(asc(t.seq));
}

/** The subscriptions of one form code and event type, oldest first. */
export async function listEventSubscribers(db: DbOrTx, p: { tenantId: string; formCode: string; eventType: string }) {
  const s = formEventSubscriptions;
  return db
    .select({ id: s.id, workflowType: s.workflowType })
    .from(s)
    .where(and(eq(s.tenantId, p.tenantId), eq(s.formCode, p.formCode), eq(s.eventType, p.eventType)))
    .orderBy(asc(s.createdAt), asc(s.id));
}

/** Throws the unique violation of (tenant, form code, event type, workflow type) when it exists. */
export async function insertFormEventSubscription(
  db: DbOrTx,
  p: { tenantId: string; formCode: string; eventType: string; workflowType: string; createdBy: string },
): Promise<FormEventSubscriptionRow> {
  const [row] = await db.insert(formEventSubscriptions).values(p).returning();
  return row!;
}

export async function listFormEventSubscriptions(db: DbOrTx, p: { tenantId: string; formCode?: string; eventType?: string }): Promise<FormEventSubscriptionRow[]> {
  const s = formEventSubscriptions;
  return db
    .select()
    .from(s)
    .where(
      and(
        eq(s.tenantId, p.tenantId),
        p.formCode ? eq(s.formCode, p.formCode) : undefined,
        p.eventType ? eq(s.eventType, p.eventType) : undefined,
      ),
    )
    .orderBy(asc(s.formCode), asc(s.eventType), asc(s.createdAt), asc(s.id));
}

/** Answers whether a subscription of the tenant was deleted. */
export async function deleteFormEventSubscription(db: DbOrTx, p: { tenantId: string; id: string }): Promise<boolean> {
  const s = formEventSubscriptions;
  const rows = await db
    .delete(s)
    .where(and(eq(s.tenantId, p.tenantId), eq(s.id, p.id)))
    .returning({ id: s.id });
  return rows.length > 0;
}
