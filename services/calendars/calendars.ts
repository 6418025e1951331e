import type { z } from 'zod';
import type { DbOrTx } from '../../db/client';
import { isForeignKeyViolation } from '../../db/errors';
import {
  deleteCalendarRow,
  getCalendarRow,
  insertCalendar,
  listCalendarRows,
  updateCalendarRow,
  type CalendarRow,
} from '../../db/queries/calendars';
import type { businessCalendarInputSchema } from '../../domain/calendar/index';
import { conflict, notFound } from '../../domain/errors';
import { uniqueOr409 } from './unique-conflict';

/** A calendar as a caller gives it (the create body). */
export type CalendarInput = z.output<typeof businessCalendarInputSchema>;
/** A replacement: a different calendarCode renames the calendar; an omitted businessDayMinutes is kept. */
export type CalendarReplacement = Omit<CalendarInput, 'calendarCode'> & { calendarCode?: string | undefined };

/** The tenant's calendars, by calendarCode. */
export async function listCalendars(db: DbOrTx, { tenantId }: { tenantId: string }) {
  return listCalendarRows(db, { tenantId });
}

/** One calendar; 404 `calendar-not-found`. */
export async function getCalendar(
  db: DbOrTx,
  { tenantId, calendarCode }: { tenantId: string; calendarCode: string },
): Promise<CalendarRow> {
  const row = await getCalendarRow(db, { tenantId, calendarCode });
  if (!row) throw notFound(`Calendar ${calendarCode}`, 'calendar-not-found');
  return row;
}

/** 409 `calendar-exists` when the tenant has the code already. */
export async function createCalendar(db: DbOrTx, { tenantId, calendar }: { tenantId: string; calendar: CalendarInput }) {
  return uniqueOr409(
    () => insertCalendar(db, { tenantId, values: { ...calendar, description: calendar.description ?? null } }),
    'calendar-exists',
    `Calendar ${calendar.calendarCode} exists already`,
  );
}

/** Replaces calendar `calendarCode`; 404 when it is gone, 409 `calendar-exists` when a rename hits a taken code. */
export async function updateCalendar(
  db: DbOrTx,
  { tenantId, calendarCode, calendar }: { tenantId: string; calendarCode: string; calendar: CalendarReplacement },
): Promise<CalendarRow> {
  const current = await getCalendar(db, { tenantId, calendarCode });
  const newCode = calendar.calendarCode ?? calendarCode;
  const row = await uniqueOr409(
    () =>
      updateCalendarRow(db, {
        tenantId,
        id: current.id,
        values: {
          calendarCode: newCode,
          name: calendar.name,
          description: calendar.description ?? null,
          active: calendar.active,
          businessDayMinutes: calendar.businessDayMinutes ?? current.businessDayMinutes,
        },
      }),
    'calendar-exists',
    `Calendar ${newCode} exists already`,
  );
  if (!row) throw notFound(`Calendar ${calendarCode}`, 'calendar-not-found');
  return row;
}

/** Deletes a calendar with its locations, hours and holidays; 409 `calendar-in-use` while a process association uses it. */
export async function deleteCalendar(db: DbOrTx, { tenantId, calendarCode }: { tenantId: string; calendarCode: string }) {
  try {
    if (!(await deleteCalendarRow(db, { tenantId, calendarCode }))) {
      throw notFound(`Calendar ${calendarCode}`, 'calendar-not-found');
    }
  } catch (err) {
    if (isForeignKeyViolation(err)) {
      throw conflict('calendar-in-use', `Calendar ${calendarCode} is used by a process association; delete that first`);
    }
    throw err;
  }
}
