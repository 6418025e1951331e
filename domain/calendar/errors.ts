import { AppError } from '../errors.js';

/**
 * What went wrong in the calendar engine. The HTTP layer maps each kind to a status:
 * - `inactive-calendar` → 409 (calculate on a calendar whose `active` is false)
 * - `unreachable`       → 422 (the budget cannot be consumed within the horizon, e.g. no hours)
 * - `span-too-large`    → 400 (availability range longer than MAX_AVAILABILITY_SPAN_DAYS)
 * - `invalid-input`     → 400 (bad time zone, time, date, budget, instant, country ...)
 */
export type CalendarEngineErrorKind = 'inactive-calendar' | 'unreachable' | 'span-too-large' | 'invalid-input';

/** The HTTP status each kind is meant to answer with. */
export const CALENDAR_ERROR_STATUS: Readonly<Record<CalendarEngineErrorKind, number>> = {
  'inactive-calendar': 409,
  unreachable: 422,
  'span-too-large': 400,
  'invalid-input': 400,
};

/** A field-level problem, for validation failures (`path` as in zod: ['sla', 'businessDays']). */
export interface CalendarFieldIssue {
  path: (string | number)[];
  message: string;
}

/**
 * The only error the calendar engine throws. It is an AppError (code `calendar-<kind>`, status as
 * above), so the root error handler can render it as problem+json without a mapping; the route may
 * still switch on `kind`.
 */
export class CalendarEngineError extends AppError {
  constructor(
    readonly kind: CalendarEngineErrorKind,
    detail: string,
    readonly issues: CalendarFieldIssue[] = [],
  ) {
    super(`calendar-${kind}`, CALENDAR_ERROR_STATUS[kind], detail, issues.length > 0 ? { issues } : {});
    this.name = 'CalendarEngineError';
  }
}

export const invalidInput = (detail: string, issues: CalendarFieldIssue[] = []) =>
  new CalendarEngineError('invalid-input', detail, issues);
