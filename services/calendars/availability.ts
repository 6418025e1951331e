import type { DbOrTx } from '../../db/client';
import { holidaysFromInstant, loadCalendarSnapshot } from '../../db/queries/calendar-snapshot';
import { computeAvailability, isCalendarOpen, parseInstant } from '../../domain/calendar/index';
import { notFound } from '../../domain/errors';

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
) {
  const fromInstant = parseInstant(from, timezone, 'from').instant;
  const snapshot = await loadCalendarSnapshot(db, { tenantId, calendarCode, holidaysFrom: holidaysFromInstant(fromInstant) });
  if (!snapshot) throw notFound(`Calendar ${calendarCode}`, 'calendar-not-found');
  return computeAvailability(snapshot, { from, to, ...(timezone ? { timezone } : {}) });
}

/** Open at `instant` (epoch milliseconds), which locations, and when that next changes. */
export async function checkCalendarOpen(
  db: DbOrTx,
  { tenantId, calendarCode, instant }: { tenantId: string; calendarCode: string; instant: number },
) {
  const snapshot = await loadCalendarSnapshot(db, { tenantId, calendarCode, holidaysFrom: holidaysFromInstant(instant) });
  if (!snapshot) throw notFound(`Calendar ${calendarCode}`, 'calendar-not-found');
  return isCalendarOpen(snapshot, instant);
}
