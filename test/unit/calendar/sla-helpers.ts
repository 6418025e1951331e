import {
  CalendarEngineError,
  calculateSla,
  type CalendarSnapshot,
  type CompiledCalendar,
  type SlaResult,
} from '../../../domain/calendar/index.js';

/** calculateSla with positional arguments, as the engine tests read best. */
export function sla(
  cal: CalendarSnapshot | CompiledCalendar,
  receivedDateTime: string,
  businessMinutes: number,
  receivedTimezone: string | undefined = 'UTC',
  businessDays = 0,
  horizonDays?: number,
): SlaResult {
  return calculateSla(
    cal,
    { receivedDateTime, receivedTimezone, sla: { businessDays, businessMinutes } },
    horizonDays === undefined ? undefined : { horizonDays },
  );
}

export const due = (r: SlaResult) => r.dueDateTimeUtc;

export function engineError(fn: () => unknown): CalendarEngineError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CalendarEngineError) return e;
    throw e;
  }
  throw new Error('expected a CalendarEngineError');
}
