import { afterFailedAttempt } from '../domain/retry-backoff';
import { context, propagation } from '@opentelemetry/api';
import { and, asc, eq, inArray, lte, sql, type SQL, type SQLWrapper, type WithSubquery } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import {
  processIdentity,
  workflowIdFor,
  type KeyedProcessContract,
  type PayloadOf,
  type SignalContract,
} from '../domain/process-contract';
import type { Db, DbOrTx, Tx } from './client';
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

/** The columns every enqueue writes, in this order. */
const ROW_COLUMNS = sql.raw(
  '(verb, capability, tenant_id, business_key, workflow_type, workflow_id, task_queue, args, signal_name, signal_args, trace_context)',
);

/** The workflow's transaction lock, held until commit: `seq` is drawn after it, so it follows commit order. */
const lockWorkflow = (workflowId: SQLWrapper | string) => sql`pg_advisory_xact_lock(${WORKFLOW_LOCK_CLASS}, hashtext(${workflowId}))`;

/**
 * The select list of the CTE an enqueue reads its row from: the workflow's lock, and NOTIFY,
 * which is transactional, so dispatchers are woken at commit, once the row is visible.
 */
const lockWorkflowAndNotify = (workflowId: SQLWrapper | string, capability: string) =>
  sql`${lockWorkflow(workflowId)}, pg_notify(${OUTBOX_CHANNEL}, ${capability})`;

/** The trace_context value: the writing code's trace context, or null. */
function traceContextValue(): SQL {
  const trace = currentTraceContext();
  return trace ? sql`${JSON.stringify(trace)}::jsonb` : sql`null`;
}

/**
 * One statement: the insert reads `locked`, so the workflow's lock is held before the row's seq
 * is drawn. Null: a start row already existed.
 */
async function insertRow(tx: DbOrTx, v: typeof outbox.$inferInsert): Promise<{ id: string } | null> {
  const json = (value: unknown[] | null | undefined) => (value == null ? sql`null` : sql`${JSON.stringify(value)}::jsonb`);
  const rows = await tx.execute<{ id: string }>(sql`
    with locked as (
      select ${lockWorkflowAndNotify(v.workflowId, v.capability)}
    )
    insert into ${outbox} ${ROW_COLUMNS}
    select ${v.verb}, ${v.capability}, ${v.tenantId}, ${v.businessKey}, ${v.workflowType ?? null}, ${v.workflowId},
      ${v.taskQueue ?? null}, ${json(v.args ?? [])}, ${v.signalName ?? null}, ${json(v.signalArgs)},
      ${traceContextValue()}
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

/** A signal's payload as SQL over the source rows: one expression per field of the contract's payload. */
export type SignalPayloadSql<P> = { [K in keyof P]-?: SQLWrapper };

/** The rows of a caller's statement that owe a signal, and how each row names its workflow. */
export interface SignalRowsSource<P> {
  /** A CTE of the caller's statement, e.g. the rows its UPDATE returned. */
  from: WithSubquery;
  /** Which of those rows get a signal. */
  where: SQLWrapper;
  /** The workflow: `workflowIdFor(capability, tenantId, businessKey)` of each row. */
  capability: string;
  tenantId: SQLWrapper;
  businessKey: SQLWrapper;
  payload: SignalPayloadSql<P>;
}

const TRACE_PLACEHOLDER = 'outboxTraceContext';

/**
 * The values a statement with signal rows binds at each execution: the trace context of the code
 * running it (a statement may be built once and run many times).
 */
export function signalRowValues(): { [TRACE_PLACEHOLDER]: string | null } {
  const trace = currentTraceContext();
  return { [TRACE_PLACEHOLDER]: trace ? JSON.stringify(trace) : null };
}

/** What `signalRowsFrom` adds to the caller's statement. */
export interface SignalRows {
  /** The CTEs to list after `source.from`, in this order. */
  ctes: [WithSubquery, WithSubquery];
  /** A boolean for the statement's select list: true when it wrote a signal row. */
  written: SQL<boolean>;
}

/**
 * `enqueueSignal` for each qualifying row of a CTE in the caller's statement, so a change and the
 * signal it owes are one statement: one round trip and its own transaction, no BEGIN/COMMIT.
 *
 * - `<name>_ready` holds the rows' values with the workflow's lock in its select list. It calls a
 *   volatile function, so PostgreSQL never folds it into the insert (a WITH query is inlined only
 *   when side-effect-free) and evaluates it once, row by row.
 * - `<name>` inserts from `<name>_ready`: a row, and so its identity `seq`, exists only once
 *   `_ready` produced it, i.e. after its workflow's lock was granted. The same guarantee as
 *   `insertRow`: the insert depends on the sub-select, never on the order of sibling CTEs.
 *
 * The lock is held until commit, so the statement must be its own transaction (the caller runs it
 * on a `Db`, never inside one). The row is `enqueueSignal`'s: verb `signal`, the workflow id of
 * `workflowIdFor` (written out in SQL here; tested equal), the payload as a one-element array, the
 * trace context of the code running the statement: a placeholder, so the caller prepares the
 * statement and binds `signalRowValues()` at each execution.
 *
 * No NOTIFY in the statement: PostgreSQL serialises every committing transaction that notified
 * (one database-wide lock from pre-commit until the commit record is flushed), which held the
 * end-of-call webhook to one WAL flush per call. The caller wakes the dispatchers once the
 * statement committed (`wakeDispatchers`) when `written` is true.
 */
export function signalRowsFrom<S extends SignalContract<unknown>>(
  name: string,
  signal: S,
  source: SignalRowsSource<PayloadOf<S>>,
): SignalRows {
  const cte = new QueryBuilder();
  const workflowId = sql`(${`${source.capability.toLowerCase()}:`}::text || ${source.tenantId} || ':' || ${source.businessKey})`;
  const fields = Object.entries(source.payload as Record<string, SQLWrapper>).map(([key, value]) => sql`${key}::text, ${value}`);
  const ready = cte.$with(`${name}_ready`, {}).as(sql`
    select ${source.tenantId} as tenant_id, ${source.businessKey} as business_key, ${workflowId} as workflow_id,
      jsonb_build_array(jsonb_build_object(${sql.join(fields, sql`, `)})) as signal_args, ${lockWorkflow(workflowId)}
    from ${source.from}
    where ${source.where}`);
  const insert = cte.$with(name, {}).as(sql`
    insert into ${outbox} ${ROW_COLUMNS}
    select 'signal', ${source.capability}, r.tenant_id, r.business_key, null, r.workflow_id,
      null, '[]'::jsonb, ${signal.name}, r.signal_args, ${sql.placeholder(TRACE_PLACEHOLDER)}::jsonb
    from ${ready} as r
    returning id`);
  return { ctes: [ready, insert], written: sql<boolean>`exists (select 1 from ${insert})`.mapWith(Boolean) };
}

/** Per client and capability: a wake-up in flight, and whether rows committed since it was sent. */
const wakeUps = new WeakMap<Db, Map<string, { again: boolean }>>();

/**
 * Wakes the capability's dispatchers after a commit that wrote outbox rows without NOTIFY
 * (`signalRowsFrom`). Not awaited by the caller, and coalesced: at most one wake-up per client and
 * capability in flight; rows committed while one is in flight get one more after it (the one in
 * flight may have been sent before they were visible). The NOTIFY is its own transaction,
 * committed without waiting for the WAL flush: it writes nothing that must survive a crash. A
 * wake-up that fails is dropped: the dispatchers' polling (dispatcher.poll-ms) finds the rows.
 */
export function wakeDispatchers(db: Db, capability: string): void {
  let byCapability = wakeUps.get(db);
  if (!byCapability) wakeUps.set(db, (byCapability = new Map()));
  const inFlight = byCapability.get(capability);
  if (inFlight) {
    inFlight.again = true;
    return;
  }
  const state = { again: false };
  byCapability.set(capability, state);
  const send = (): Promise<void> =>
    db
      .execute(sql`select set_config('synchronous_commit', 'off', true), pg_notify(${OUTBOX_CHANNEL}, ${capability})`)
      .then(
        () => {},
        () => {},
      )
      .then(() => {
        if (!state.again) return void byCapability.delete(capability);
        state.again = false;
        return send();
      });
  void send();
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
