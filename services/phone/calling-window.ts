// The calling window of a call: the open hours of the process calendar its assistant or number
// names, read with the calendar engine (is-open and its next change).
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../domain/errors';
import { checkCalendarOpen, checkLocationOpen } from '../calendars/availability';
import { requireProcessCalendar } from './calling-policies';

/**
 * null: the window is open at `at`; otherwise the first instant after `at` when it opens. With a
 * `calleeLocationCode`, the window is that location's hours alone (the callee's), else any enabled
 * location's.
 */
export async function nextCallingOpening(
  db: DbOrTx,
  p: { tenantId: string; callingCalendarKey: string; at: Date; calleeLocationCode?: string | null | undefined },
): Promise<Date | null> {
  const association = await requireProcessCalendar(db, { tenantId: p.tenantId, key: p.callingCalendarKey });
  if (p.calleeLocationCode) {
    const local = await checkLocationOpen(db, { tenantId: p.tenantId, calendarCode: association.calendarCode, locationCode: p.calleeLocationCode, instant: p.at.getTime() });
    if (!local) {
      throw new AppError('unknown-callee-location', `The calendar of ${p.callingCalendarKey} has no location ${p.calleeLocationCode}`);
    }
    if (local.open) return null;
    if (!local.opensAt) throw new AppError('calling-window-never-opens', `Location ${p.calleeLocationCode} of ${p.callingCalendarKey} has no open hours ahead`);
    return new Date(local.opensAt);
  }
  const state = await checkCalendarOpen(db, { tenantId: p.tenantId, calendarCode: association.calendarCode, instant: p.at.getTime() });
  if (state.open) return null;
  // Consecutive pieces of the engine's timeline differ in their open set, so the change after a
  // closed piece is an opening.
  if (!state.nextChangeAt) {
    throw new AppError('calling-window-never-opens', `The calendar of ${p.callingCalendarKey} has no open hours ahead`);
  }
  return new Date(state.nextChangeAt);
}
