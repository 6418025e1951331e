import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { FORM_EVENT_STATES, type FormEventPayload } from '../../domain/forms/event-rail';

/**
 * FormEventOutbox (spec "Forms"): one row per lifecycle change of a form instance, written by the
 * `form_instances` triggers (migration `form_event_rail`) in the transaction of the change, so
 * every code path writes it. The correlator (workers/form-event-correlator.ts) delivers it.
 * `seq` orders the events of one instance in commit order of their rows.
 */
export const formEventOutbox = pgTable(
  'form_event_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    tenantId: text('tenant_id').notNull(),
    eventType: text('event_type').notNull(),
    formCode: text('form_code').notNull(),
    instanceId: uuid('instance_id').notNull(),
    payloadJson: jsonb('payload_json').$type<FormEventPayload>().notNull(),
    state: text('state', { enum: FORM_EVENT_STATES }).notNull().default('QUEUED'),
    retryCount: integer('retry_count').notNull().default(0),
    /** How many outbox rows (starts and signals) the delivery enqueued. */
    deliveries: integer('deliveries').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('form_event_outbox_instance_idx').on(t.instanceId, t.seq),
    index('form_event_outbox_due_idx').on(t.nextAttemptAt, t.seq).where(sql`${t.state} = 'QUEUED'`),
  ],
);

/** Workflows started for each event of a form code and event type (data, managed through routes). */
export const formEventSubscriptions = pgTable(
  'form_event_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id').notNull(),
    formCode: text('form_code').notNull(),
    eventType: text('event_type').notNull(),
    workflowType: text('workflow_type').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('form_event_subscriptions_key_idx').on(t.tenantId, t.formCode, t.eventType, t.workflowType)],
);
