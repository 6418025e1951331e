import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const OUTBOX_STATES = ['QUEUED', 'STARTED', 'CLOSED', 'FAILED'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/**
 * One generic process-start outbox for every capability. A row is written in the same
 * transaction as its business row; the dispatcher turns it into a workflow start whose id is
 * derived from (capability, tenant, businessKey), so a repeated start is harmless.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    capability: text('capability').notNull(),
    tenantId: text('tenant_id').notNull(),
    businessKey: text('business_key').notNull(),
    workflowType: text('workflow_type').notNull(),
    workflowId: text('workflow_id').notNull(),
    taskQueue: text('task_queue'),
    args: jsonb('args').$type<unknown[]>().notNull().default([]),
    state: text('state', { enum: OUTBOX_STATES }).notNull().default('QUEUED'),
    retryCount: integer('retry_count').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    processInstanceId: text('process_instance_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('outbox_business_key_idx').on(t.capability, t.tenantId, t.businessKey),
    uniqueIndex('outbox_workflow_id_idx').on(t.workflowId),
    index('outbox_due_idx').on(t.state, t.nextAttemptAt),
  ],
);
