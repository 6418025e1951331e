import type { DbOrTx } from '../../db/client';
import { holidaysFromInstant, loadCalendarSnapshot, readCalendarVersion } from '../../db/queries/calendar-snapshot';
import { type CalendarSnapshot, type CompiledCalendar, computeAvailability, isCalendarOpen, nextLocationOpening, parseInstant } from '../../domain/calendar/index';
import { notFound } from '../../domain/errors';
import { type CompiledCalendarCache, compiledCalendarAt } from './compiled-calendars';

/**
 * The calendar `calendarCode` for an engine run from `fromInstant`: the process's cached compiled
 * calendar at its current rules version (one version read; loaded and compiled when stale), or,
 * without a cache, a snapshot with its holidays from two days before `fromInstant`.
 */
async function calendarFor(
  db: DbOrTx,
  calendars: CompiledCalendarCache | undefined,
  { tenantId, calendarCode, fromInstant }: { tenantId: string; calendarCode: string; fromInstant: number },
): Promise<CalendarSnapshot | CompiledCalendar> {
  let calendar: CalendarSnapshot | CompiledCalendar | null;
  if (calendars) {
    const version = await readCalendarVersion(db, { tenantId, calendarCode });
    calendar = version && (await compiledCalendarAt(db, calendars, { tenantId, ...version }));
  } else {
    calendar = await loadCalendarSnapshot(db, { tenantId, calendarCode, holidaysFrom: holidaysFromInstant(fromInstant) });
  }
  if (!calendar) throw notFound(`Calendar ${calendarCode}`, 'calendar-not-found');
  return calendar;
}

/**
 * Open windows of the union of enabled locations in [from, to). from/to are instants with an
 * offset, or local date-times (or dates) read in `timezone`; engine input errors are
 * CalendarEngineErrors with field issues.
 */
export async function readAvailability(
  db: DbOrTx,
  {
    tenantId,
    calendarCode,
    from,
    to,
    timezone,
  }: { tenantId: string; calendarCode: string; from: string; to: string; timezone?: string | undefined },
  calendars?: CompiledCalendarCache,
) {
  const fromInstant = parseInstant(from, timezone, 'from').instant;
  const calendar = await calendarFor(db, calendars, { tenantId, calendarCode, fromInstant });
  return computeAvailability(calendar, { from, to, ...(timezone ? { timezone } : {}) });
}

/** Open at `instant` (epoch milliseconds), which locations, and when that next changes. */
export async function checkCalendarOpen(
  db: DbOrTx,
  { tenantId, calendarCode, instant }: { tenantId: string; calendarCode: string; instant: number },
  calendars?: CompiledCalendarCache,
) {
  const calendar = await calendarFor(db, calendars, { tenantId, calendarCode, fromInstant: instant });
  return isCalendarOpen(calendar, instant);
}

/** Whether one location of the calendar is open at `instant`, and when it next opens; undefined: no such location. */
export async function checkLocationOpen(
  db: DbOrTx,
  { tenantId, calendarCode, locationCode, instant }: { tenantId: string; calendarCode: string; locationCode: string; instant: number },
  calendars?: CompiledCalendarCache,
) {
  const calendar = await calendarFor(db, calendars, { tenantId, calendarCode, fromInstant: instant });
  return nextLocationOpening(calendar, instant, locationCode);
}
