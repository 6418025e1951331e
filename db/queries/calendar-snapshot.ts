import { sql } from 'drizzle-orm';
import type { CalendarSnapshot } from '../../domain/calendar/types';
import type { DbOrTx } from '../client';

/** An engine snapshot with the calendar's id and the rules version it was read at (one statement: they agree). */
export type VersionedCalendarSnapshot = CalendarSnapshot & { calendarId: string; rulesVersion: number };

/**
 * A calendar with its locations (in sortOrder), hours and holidays as the engine's snapshot, in
 * one round trip built as JSON by PostgreSQL (the relational query builder took six times longer
 * on a calendar with ten years of holidays); null when the tenant has no such calendar. It carries
 * the calendar's id and `rules_version` read by the same statement, so a compiled calendar cached
 * under that version is exactly the data of that version.
 *
 * `holidaysFrom` (a date) leaves out dated holidays before it: the engine never looks before its
 * start, so callers pass a date a little before it and imported history stops costing reads.
 * Recurring holidays are always loaded. A snapshot compiled for the cache omits it (every holiday).
 */
export async function loadCalendarSnapshot(
  db: DbOrTx,
  params: { tenantId: string; holidaysFrom?: string } & ({ calendarCode: string } | { calendarId: string }),
): Promise<VersionedCalendarSnapshot | null> {
  const { tenantId, holidaysFrom } = params;
  const match = 'calendarCode' in params ? sql`c.calendar_code = ${params.calendarCode}` : sql`c.id = ${params.calendarId}`;
  const from = holidaysFrom === undefined ? sql`true` : sql`(d.recurring or d.date >= ${holidaysFrom}::date)`;
  const rows = await db.execute<{
    id: string;
    rules_version: string | number;
    calendar_code: string;
    active: boolean;
    business_day_minutes: number;
    locations: unknown;
  }>(sql`
    select c.id, c.rules_version, c.calendar_code, c.active, c.business_day_minutes,
      coalesce((
        select json_agg(json_build_object(
          'locationCode', l.location_code,
          'timezone', l.timezone,
          'enabled', l.enabled,
          'hours', coalesce((
            select json_agg(json_build_object(
              'dayOfWeek', h.day_of_week, 'startTime', h.start_time, 'endTime', h.end_time, 'active', h.active,
              'effectiveFrom', h.effective_from, 'effectiveUntil', h.effective_until))
            from business_hours h where h.location_id = l.id), '[]'::json),
          'holidays', coalesce((
            select json_agg(json_build_object(
              'date', d.date, 'openFrom', d.open_from, 'openUntil', d.open_until, 'closed', d.closed, 'recurring', d.recurring))
            from holidays d where d.location_id = l.id and ${from}), '[]'::json)
        ) order by l.sort_order, l.location_code)
        from calendar_locations l where l.calendar_id = c.id
      ), '[]'::json) as locations
    from business_calendars c
    where c.tenant_id = ${tenantId} and ${match}`);
  const row = rows[0];
  if (!row) return null;
  return {
    calendarId: row.id,
    rulesVersion: Number(row.rules_version),
    calendarCode: row.calendar_code,
    active: row.active,
    businessDayMinutes: row.business_day_minutes,
    locations: (typeof row.locations === 'string' ? JSON.parse(row.locations) : row.locations) as CalendarSnapshot['locations'],
  };
}

/** The `holidaysFrom` for an engine run starting at `instantMs`: two days earlier, covering every zone. */
export const holidaysFromInstant = (instantMs: number) => new Date(instantMs - 2 * 86_400_000).toISOString().slice(0, 10);

/** A calendar's id and current rules version (the one cheap read a cached compiled calendar needs). */
export interface CalendarVersion {
  calendarId: string;
  rulesVersion: number;
}

/** The id and rules version of the tenant's calendar `calendarCode`; null when it has none. */
export async function readCalendarVersion(
  db: DbOrTx,
  { tenantId, calendarCode }: { tenantId: string; calendarCode: string },
): Promise<CalendarVersion | null> {
  const rows = await db.execute<{ id: string; rules_version: string | number }>(sql`
    select c.id, c.rules_version from business_calendars c
    where c.tenant_id = ${tenantId} and c.calendar_code = ${calendarCode}`);
  const row = rows[0];
  return row ? { calendarId: row.id, rulesVersion: Number(row.rules_version) } : null;
}

/**
 * A process definition's SLA association (active, budget) with its calendar's id and current rules
 * version, in one round trip; null when the tenant has no association for the key.
 */
export async function readSlaCalendarVersion(
  db: DbOrTx,
  { tenantId, processDefinitionKey }: { tenantId: string; processDefinitionKey: string },
): Promise<(CalendarVersion & { active: boolean; slaBusinessDays: number; slaBusinessMinutes: number }) | null> {
  const rows = await db.execute<{
    active: boolean;
    sla_business_days: number;
    sla_business_minutes: number;
    calendar_id: string;
    rules_version: string | number;
  }>(sql`
    select a.active, a.sla_business_days, a.sla_business_minutes, a.calendar_id, c.rules_version
    from process_calendar_associations a
    join business_calendars c on c.id = a.calendar_id
    where a.tenant_id = ${tenantId} and a.process_definition_key = ${processDefinitionKey}`);
  const row = rows[0];
  if (!row) return null;
  return {
    active: row.active,
    slaBusinessDays: row.sla_business_days,
    slaBusinessMinutes: row.sla_business_minutes,
    calendarId: row.calendar_id,
    rulesVersion: Number(row.rules_version),
  };
}
