import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { SLA_CLOCK_STATES } from '../../domain/calendar/sla-clock-process';
import { tenants } from './access';
import { businessCalendars, processCalendarAssociations } from './calendars';

/** A run of a clock as stored: ISO-8601 UTC instants; `to` null while it runs. */
export interface StoredClockRun {
  from: string;
  to: string | null;
}

/** A warning as recorded: the percent of the budget and the business instant it was reached at. */
export interface StoredClockWarning {
  percent: number;
  at: string;
  recordedAt: string;
}

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/**
 * An SLA clock (migration 0025): a business-time budget consumed on a process association's
 * calendar while the clock runs. `runs` are the spans it ran in (a pause closes one, a resume opens
 * the next); `rules_version` is the calendar version its due date was last computed at. Triggers
 * signal every live clock's process when its calendar changes, and refuse to delete a calendar a
 * live clock runs on. `waitingWorkflowId` (migration 0031): the workflow that started the clock
 * through the `startSlaClock` activity and hears its warnings, breach and met; never set by a
 * tenant's request. `startKey` makes a retried activity find its first clock.
 */
export const slaClocks = pgTable(
  'sla_clocks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    processCalendarId: uuid('process_calendar_id').references(() => processCalendarAssociations.id, { onDelete: 'set null' }),
    /** The key the clock was started with (kept when the association is renamed or deleted). */
    processCalendarKey: text('process_calendar_key').notNull(),
    calendarId: uuid('calendar_id')
      .notNull()
      .references(() => businessCalendars.id, { onDelete: 'cascade' }),
    rulesVersion: bigint('rules_version', { mode: 'number' }).notNull(),
    subjectKind: text('subject_kind').notNull(),
    subjectId: text('subject_id').notNull(),
    budgetDays: integer('budget_days').notNull(),
    budgetMinutes: integer('budget_minutes').notNull(),
    warnAt: integer('warn_at').array().notNull(),
    state: text('state', { enum: SLA_CLOCK_STATES }).notNull().default('RUNNING'),
    receivedAt: timestamptz('received_at').notNull(),
    runs: jsonb('runs').$type<StoredClockRun[]>().notNull(),
    dueAt: timestamptz('due_at'),
    warnings: jsonb('warnings').$type<StoredClockWarning[]>().notNull().default([]),
    breachedAt: timestamptz('breached_at'),
    stoppedAt: timestamptz('stopped_at'),
    cancelledAt: timestamptz('cancelled_at'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    waitingWorkflowId: text('waiting_workflow_id'),
    startKey: text('start_key'),
  },
  (t) => [
    uniqueIndex('sla_clocks_start_key_idx').on(t.tenantId, t.startKey),
    index('sla_clocks_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('sla_clocks_subject_idx').on(t.tenantId, t.subjectKind, t.subjectId, t.createdAt),
    index('sla_clocks_live_calendar_idx').on(t.calendarId).where(sql`${t.state} in ('RUNNING', 'PAUSED')`),
    index('sla_clocks_live_association_idx').on(t.processCalendarId).where(sql`${t.state} in ('RUNNING', 'PAUSED')`),
    check('sla_clocks_state_ck', sql`${t.state} in ('RUNNING', 'PAUSED', 'MET', 'BREACHED', 'CANCELLED')`),
    check('sla_clocks_budget_ck', sql`${t.budgetDays} >= 0 and ${t.budgetMinutes} >= 0 and ${t.budgetDays} + ${t.budgetMinutes} > 0`),
  ],
);

/** A clock's history: started, paused, resumed, warning, breached, met, stopped, cancelled, recomputed. */
export const slaClockEvents = pgTable(
  'sla_clock_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clockId: uuid('clock_id')
      .notNull()
      .references(() => slaClocks.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id').notNull(),
    kind: text('kind').notNull(),
    /** When it took effect (a warning: the business instant its percentage was reached). */
    at: timestamptz('at').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    recordedAt: timestamptz('recorded_at').notNull().defaultNow(),
  },
  (t) => [index('sla_clock_events_clock_idx').on(t.clockId, t.id)],
);
