import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * QUEUED: waiting for a dispatcher. STARTED: the workflow runs (start, signal-with-start).
 * DELIVERED: the signal reached a running workflow. UNDELIVERABLE: the signal's workflow was not
 * running (finished, or never started); recorded, not retried. CLOSED: the process reached its end.
 * FAILED: attempts exhausted.
 */
export const OUTBOX_STATES = ['QUEUED', 'STARTED', 'DELIVERED', 'UNDELIVERABLE', 'CLOSED', 'FAILED'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

export const OUTBOX_VERBS = ['start', 'signal', 'signal-with-start'] as const;
export type OutboxVerb = (typeof OUTBOX_VERBS)[number];

/**
 * The one way API-side code talks to Temporal. A row is written in the same transaction as the
 * business state it announces; the dispatcher turns it into a workflow start, a signal, or a
 * signal-with-start. Start rows are unique per (capability, tenant, business key) and their
 * workflow id follows from it, so a repeated start is harmless. `seq` orders the rows of one
 * workflow in commit order (enqueueing holds a per-workflow lock until commit), and a row is only
 * dispatched once no earlier row of its workflow is still QUEUED.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    verb: text('verb', { enum: OUTBOX_VERBS }).notNull().default('start'),
    capability: text('capability').notNull(),
    tenantId: text('tenant_id').notNull(),
    businessKey: text('business_key').notNull(),
    /** null only on a plain signal to a workflow the platform did not start (its type is unknown). */
    workflowType: text('workflow_type'),
    workflowId: text('workflow_id').notNull(),
    taskQueue: text('task_queue'),
    args: jsonb('args').$type<unknown[]>().notNull().default([]),
    signalName: text('signal_name'),
    signalArgs: jsonb('signal_args').$type<unknown[]>(),
    state: text('state', { enum: OUTBOX_STATES }).notNull().default('QUEUED'),
    retryCount: integer('retry_count').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    processInstanceId: text('process_instance_id'),
    /** W3C trace context (`traceparent`, `tracestate`) of the request that wrote the row; null when tracing is off. */
    traceContext: jsonb('trace_context').$type<Record<string, string>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('outbox_business_key_idx').on(t.capability, t.tenantId, t.businessKey).where(sql`${t.verb} = 'start'`),
    uniqueIndex('outbox_workflow_id_idx').on(t.workflowId).where(sql`${t.verb} = 'start'`),
    index('outbox_due_idx').on(t.state, t.nextAttemptAt),
    index('outbox_workflow_queued_idx').on(t.workflowId, t.seq).where(sql`${t.state} = 'QUEUED'`),
    check('outbox_verb_fields', sql`(${t.verb} = 'signal' or ${t.workflowType} is not null) and (${t.verb} = 'start' or ${t.signalName} is not null)`),
  ],
);
