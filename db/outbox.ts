import { afterFailedAttempt } from '../domain/retry-backoff';
import { context, propagation } from '@opentelemetry/api';
import { and, asc, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import {
  processIdentity,
  workflowIdFor,
  type KeyedProcessContract,
  type PayloadOf,
  type SignalContract,
} from '../domain/process-contract';
import type { DbOrTx, Tx } from './client';
import { outbox } from './schema/outbox';

export { workflowIdFor };

export const OUTBOX_CHANNEL = 'outbox_ready';

export type OutboxRow = typeof outbox.$inferSelect;

/** Where a signal goes: a process by its business key, or a workflow id recorded elsewhere. */
export interface SignalTarget {
  /** Whose dispatchers deliver the row (setting dispatcher.capabilities). */
  capability: string;
  tenantId: string;
  businessKey: string;
  /** Defaults to the id the outbox gives (capability, tenant, businessKey). */
  workflowId?: string;
}

/**
 * Serialises the enqueues of one workflow until commit, so `seq` (taken after the lock) follows
 * commit order. Enqueue last in a transaction: the lock is held until it ends. The first key
 * keeps these locks apart from the migration lock and any other advisory lock.
 */
const WORKFLOW_LOCK_CLASS = 0x6f62; // "ob"

/**
 * One statement: the insert reads `locked`, so the workflow's lock is held before the row's seq
 * is drawn; NOTIFY is transactional, so dispatchers are woken at commit, once the row is visible.
 * Hot paths (a webhook ending a call) pay one round trip for it. Null: a start row already existed.
 */
async function insertRow(tx: DbOrTx, v: typeof outbox.$inferInsert): Promise<{ id: string } | null> {
  const json = (value: unknown[] | null | undefined) => (value == null ? sql`null` : sql`${JSON.stringify(value)}::jsonb`);
  const trace = currentTraceContext();
  const rows = await tx.execute<{ id: string }>(sql`
    with locked as (
      select pg_advisory_xact_lock(${WORKFLOW_LOCK_CLASS}, hashtext(${v.workflowId})), pg_notify(${OUTBOX_CHANNEL}, ${v.capability})
    )
    insert into ${outbox} (verb, capability, tenant_id, business_key, workflow_type, workflow_id, task_queue, args, signal_name, signal_args, trace_context)
    select ${v.verb}, ${v.capability}, ${v.tenantId}, ${v.businessKey}, ${v.workflowType ?? null}, ${v.workflowId},
      ${v.taskQueue ?? null}, ${json(v.args ?? [])}, ${v.signalName ?? null}, ${json(v.signalArgs)},
      ${trace ? sql`${JSON.stringify(trace)}::jsonb` : sql`null`}
    from locked
    on conflict do nothing
    returning id`);
  return rows[0] ?? null;
}

/**
 * The W3C trace context of the code writing the row (the API request's span), so the dispatcher
 * starts the workflow as part of the same trace. Null when tracing is off (no propagator is set).
 */
function currentTraceContext(): Record<string, string> | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : null;
}

/**
 * Starts the contract's process for this input, in the caller's transaction, next to the business
 * row. A second start of the same business key is a no-op (null).
 */
export async function enqueueStart<I>(tx: DbOrTx, contract: KeyedProcessContract<I>, input: I, options: { taskQueue?: string } = {}) {
  const id = processIdentity(contract, input);
  return insertRow(tx, { ...id, verb: 'start', workflowType: contract.workflowType, taskQueue: options.taskQueue ?? null, args: [input] });
}

/** Sends one of a process's signals to its running workflow; written in the transaction that makes it true. */
export async function enqueueSignal<S extends SignalContract<unknown>>(tx: DbOrTx, target: SignalTarget, signal: S, payload: PayloadOf<S>) {
  return insertRow(tx, {
    capability: target.capability,
    tenantId: target.tenantId,
    businessKey: target.businessKey,
    workflowId: target.workflowId ?? workflowIdFor(target.capability, target.tenantId, target.businessKey),
    verb: 'signal',
    signalName: signal.name,
    signalArgs: [payload],
  });
}

/** Signals the contract's process for this input, starting it first when it does not run yet. */
export async function enqueueSignalWithStart<I, S extends SignalContract<unknown>>(
  tx: DbOrTx,
  contract: KeyedProcessContract<I>,
  input: I,
  signal: S,
  payload: PayloadOf<S>,
  options: { taskQueue?: string } = {},
) {
  const id = processIdentity(contract, input);
  return insertRow(tx, {
    ...id,
    verb: 'signal-with-start',
    workflowType: contract.workflowType,
    taskQueue: options.taskQueue ?? null,
    args: [input],
    signalName: signal.name,
    signalArgs: [payload],
  });
}

/**
 * Claims due rows; SKIP LOCKED lets any number of dispatchers share the table. A row waits while
 * an earlier row of its workflow is still QUEUED (claimed by another dispatcher, or backing off),
 * so a workflow's rows are delivered one at a time, in commit order.
 */
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
        sql`not exists (select 1 from ${outbox} as earlier where earlier.workflow_id = ${outbox.workflowId}
              and earlier.state = 'QUEUED' and earlier.seq < ${outbox.seq})`,
      ),
    )
    .orderBy(asc(outbox.seq))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markStarted(tx: DbOrTx, id: string, runId: string | null) {
  await tx
    .update(outbox)
    .set({ state: 'STARTED', processInstanceId: runId, lastError: null, updatedAt: sql`now()` })
    .where(eq(outbox.id, id));
}

/** A signal row's outcome: DELIVERED, or UNDELIVERABLE with the reason (its workflow was not running). */
export async function markSignalOutcome(tx: DbOrTx, id: string, outcome: 'DELIVERED' | 'UNDELIVERABLE', note: string | null = null) {
  await tx
    .update(outbox)
    .set({ state: outcome, lastError: note, updatedAt: sql`now()` })
    .where(eq(outbox.id, id));
}

export async function markAttemptFailed(
  tx: DbOrTx,
  row: OutboxRow,
  error: string,
  maxAttempts: number,
  backoffMs: number,
) {
  // Jittered, so rows that failed together do not retry together.
  const next = afterFailedAttempt(row.retryCount, maxAttempts, backoffMs, 0.5 + Math.random() / 2);
  await tx.update(outbox).set(failedAttemptColumns(next, error)).where(eq(outbox.id, row.id));
  return next.failed;
}

/** The columns a failed delivery attempt sets on a retried row (the outbox's and the form event rail's). */
export const failedAttemptColumns = (next: ReturnType<typeof afterFailedAttempt>, error: string) => ({
  state: next.failed ? ('FAILED' as const) : ('QUEUED' as const),
  retryCount: next.attempts,
  lastError: error.slice(0, 2000),
  nextAttemptAt: sql`now() + make_interval(secs => ${next.delaySeconds})`,
  updatedAt: sql`now()`,
});

const startRowOf = (capability: string, tenantId: string, businessKey: string) =>
  and(eq(outbox.capability, capability), eq(outbox.tenantId, tenantId), eq(outbox.businessKey, businessKey), eq(outbox.verb, 'start'));

/** The process reached its end: its start row STARTED → CLOSED (idempotent); its signal rows keep their outcome. */
export async function closeOutbox(db: DbOrTx, capability: string, tenantId: string, businessKey: string) {
  const rows = await db
    .update(outbox)
    .set({ state: 'CLOSED', updatedAt: sql`now()` })
    .where(startRowOf(capability, tenantId, businessKey))
    .returning({ id: outbox.id });
  return rows.length > 0;
}

/** The start row of a process. */
export async function getOutboxRow(db: DbOrTx, capability: string, tenantId: string, businessKey: string) {
  const rows = await db.select().from(outbox).where(startRowOf(capability, tenantId, businessKey));
  return rows[0] ?? null;
}

/** QUEUED rows and the age of the oldest per capability: one aggregate over the queued rows (metrics scrape). */
export async function outboxBacklog(db: DbOrTx) {
  const rows = await db.execute<{ capability: string; queued: number; oldest: number }>(sql`
    select capability, count(*)::int as queued, extract(epoch from now() - min(created_at))::float8 as oldest
    from ${outbox} where state = 'QUEUED' group by capability`);
  return rows.map((r) => ({ capability: r.capability, queued: Number(r.queued), oldestAgeSeconds: Number(r.oldest) }));
}
