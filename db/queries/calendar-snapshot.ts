import { sql } from 'drizzle-orm';
import type { CalendarSnapshot } from '../../domain/calendar/types';
import type { DbOrTx } from '../client';

/**
 * A calendar with its locations (in sortOrder), hours and holidays as the engine's snapshot, in
 * one round trip built as JSON by PostgreSQL (the relational query builder took six times longer
 * on a calendar with ten years of holidays); null when the tenant has no such calendar.
 *
 * `holidaysFrom` (a date) leaves out dated holidays before it: the engine never looks before its
 * start, so callers pass a date a little before it and imported history stops costing reads.
 * Recurring holidays are always loaded.
 */
export async function loadCalendarSnapshot(
  db: DbOrTx,
  params: { tenantId: string; holidaysFrom?: string } & ({ calendarCode: string } | { calendarId: string }),
): Promise<CalendarSnapshot | null> {
  const { tenantId, holidaysFrom } = params;
  const match = 'calendarCode' in params ? sql`c.calendar_code = ${params.calendarCode}` : sql`c.id = ${params.calendarId}`;
  const from = holidaysFrom === undefined ? sql`true` : sql`(d.recurring or d.date >= ${holidaysFrom}::date)`;
  const rows = await db.execute<{ calendar_code: string; active: boolean; business_day_minutes: number; locations: unknown }>(sql`
    select c.calendar_code, c.active, c.business_day_minutes,
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
    calendarCode: row.calendar_code,
    active: row.active,
    businessDayMinutes: row.business_day_minutes,
    locations: (typeof row.locations === 'string' ? JSON.parse(row.locations) : row.locations) as CalendarSnapshot['locations'],
  };
}

/** The `holidaysFrom` for an engine run starting at `instantMs`: two days earlier, covering every zone. */
export const holidaysFromInstant = (instantMs: number) => new Date(instantMs - 2 * 86_400_000).toISOString().slice(0, 10);
