import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './access';

export const PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type Priority = (typeof PRIORITIES)[number];

const stamps = () => ({
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
const tenantRef = () =>
  text('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

/** A named business calendar, addressed by calendarCode (unique per tenant). */
export const businessCalendars = pgTable(
  'business_calendars',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    calendarCode: text('calendar_code').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    active: boolean('active').notNull().default(true),
    /** Length of one business day for budgets given in business days (a calendar setting). */
    businessDayMinutes: integer('business_day_minutes').notNull().default(480),
    /**
     * Version of everything the SLA engine reads of this calendar (its code, active,
     * businessDayMinutes, its locations, their hours and holidays). Raised by PostgreSQL triggers
     * (migration 0023), never by application code, so no write path can forget it: a node keeps a
     * compiled calendar while the version it read with it is still current.
     */
    rulesVersion: bigint('rules_version', { mode: 'number' }).notNull().default(1),
    ...stamps(),
  },
  (t) => [
    uniqueIndex('business_calendars_code_idx').on(t.tenantId, t.calendarCode),
    check('business_calendars_day_minutes_ck', sql`${t.businessDayMinutes} between 1 and 1440`),
  ],
);

/** A location of a calendar; its IANA timezone drives every conversion. */
export const calendarLocations = pgTable(
  'calendar_locations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    calendarId: uuid('calendar_id')
      .notNull()
      .references(() => businessCalendars.id, { onDelete: 'cascade' }),
    locationCode: text('location_code').notNull(),
    name: text('name').notNull(),
    timezone: text('timezone').notNull(),
    country: text('country'),
    region: text('region'),
    city: text('city'),
    enabled: boolean('enabled').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    ...stamps(),
  },
  (t) => [uniqueIndex('calendar_locations_code_idx').on(t.calendarId, t.locationCode), index('calendar_locations_tenant_idx').on(t.tenantId)],
);

/** A weekly window of a location (wall-clock times; endTime not after startTime runs past midnight). */
export const businessHours = pgTable(
  'business_hours',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    locationId: uuid('location_id')
      .notNull()
      .references(() => calendarLocations.id, { onDelete: 'cascade' }),
    dayOfWeek: integer('day_of_week').notNull(),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
    label: text('label'),
    partial: boolean('partial').notNull().default(false),
    capacityPercent: integer('capacity_percent'),
    partialReason: text('partial_reason'),
    active: boolean('active').notNull().default(true),
    effectiveFrom: date('effective_from', { mode: 'string' }),
    effectiveUntil: date('effective_until', { mode: 'string' }),
    ...stamps(),
  },
  (t) => [
    index('business_hours_location_idx').on(t.locationId),
    check('business_hours_day_ck', sql`${t.dayOfWeek} between 1 and 7`),
  ],
);

/** A holiday of a location: closed all day, or narrowed to [openFrom, openUntil). */
export const holidays = pgTable(
  'holidays',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    locationId: uuid('location_id')
      .notNull()
      .references(() => calendarLocations.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    name: text('name').notNull(),
    type: text('type'),
    openFrom: text('open_from'),
    openUntil: text('open_until'),
    closed: boolean('closed').notNull().default(true),
    description: text('description'),
    recurring: boolean('recurring').notNull().default(false),
    ...stamps(),
  },
  (t) => [index('holidays_location_date_idx').on(t.locationId, t.date)],
);

/** Which calendar and budget a process definition's SLA uses (processDefinitionKey unique per tenant). */
export const processCalendarAssociations = pgTable(
  'process_calendar_associations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    processDefinitionKey: text('process_definition_key').notNull(),
    // No cascade: a calendar an SLA depends on is not deleted from under it (409 calendar-in-use).
    calendarId: uuid('calendar_id')
      .notNull()
      .references(() => businessCalendars.id, { onDelete: 'no action' }),
    slaBusinessDays: integer('sla_business_days').notNull().default(0),
    slaBusinessMinutes: integer('sla_business_minutes').notNull().default(0),
    priority: text('priority', { enum: PRIORITIES }).notNull().default('MEDIUM'),
    active: boolean('active').notNull().default(true),
    ...stamps(),
  },
  (t) => [
    uniqueIndex('process_calendar_key_idx').on(t.tenantId, t.processDefinitionKey),
    index('process_calendar_calendar_idx').on(t.calendarId),
    check('process_calendar_budget_ck', sql`${t.slaBusinessDays} >= 0 and ${t.slaBusinessMinutes} >= 0`),
  ],
);
