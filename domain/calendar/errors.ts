import { AppError } from '../errors.js';

/**
 * What went wrong in the calendar engine; the error's code is `calendar-<kind>`, its status from
 * the code table: `inactive-calendar` (calculate on a calendar whose `active` is false),
 * `unreachable` (the budget cannot be consumed within the horizon, e.g. no hours),
 * `span-too-large` (availability range longer than MAX_AVAILABILITY_SPAN_DAYS), `invalid-input`
 * (bad time zone, time, date, budget, instant, country ...).
 */
export type CalendarEngineErrorKind = 'inactive-calendar' | 'unreachable' | 'span-too-large' | 'invalid-input';

/** A field-level problem, for validation failures (`path` as in zod: ['sla', 'businessDays']). */
export interface CalendarFieldIssue {
  path: (string | number)[];
  message: string;
}

/**
 * The only error the calendar engine throws. It is an AppError (code `calendar-<kind>`), so the
 * root error handler can render it as problem+json without a mapping; the route may still switch
 * on `kind`.
 */
export class CalendarEngineError extends AppError {
  constructor(
    readonly kind: CalendarEngineErrorKind,
    detail: string,
    readonly issues: CalendarFieldIssue[] = [],
  ) {
    super(`calendar-${kind}`, detail, issues.length > 0 ? { issues } : {});
    this.name = 'CalendarEngineError';
  }
}

export const invalidInput = (detail: string, issues: CalendarFieldIssue[] = []) =>
  new CalendarEngineError('invalid-input', detail, issues);
