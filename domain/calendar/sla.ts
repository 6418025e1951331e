/**
 * SLA due dates: consume a budget of business minutes from the received instant over the union of
 * the calendar's enabled locations, through the calendar's open-time index (running sums of open
 * time per chunk, memoised on the compiled calendar: pass the same CompiledCalendar for every
 * calculation on one calendar version to keep it warm).
 */
import * as model from './calendar-model.js';
import type { CompiledCalendar, CompiledLocation } from './calendar-model.js';
import { CalendarEngineError, invalidInput } from './errors.js';
import * as civil from './civil-date.js';
import * as input from './instant-input.js';
import * as iso from './iso-format.js';
import * as zones from './time-zones.js';
import * as openTime from './open-time-index.js';
import type { CalendarSnapshot, EngineOptions, SlaBudget, SlaRequest, SlaResult } from './types.js';

// Bound once, from the defining modules (not local-time.ts): under tsx's CommonJS transform every
// read of an imported binding is a getter call (a re-exported one two), which on a warm due date
// cost more than the index lookup itself.
const { toCompiledCalendar } = model;
const { DAY_MS, MINUTE_MS } = civil;
const { parseInstant } = input;
const { formatInZone, formatUtc, formatWithOffset } = iso;
const { assertTimeZone } = zones;
const { openTimeIndexOf } = openTime;

function unreachableError(budget: number, horizonDays: number, calendarCode: string): CalendarEngineError {
  return new CalendarEngineError(
    'unreachable',
    `a budget of ${budget} business minutes cannot be reached within ${horizonDays} days on calendar ${calendarCode}`,
  );
}

/** Default search horizon past the start: five years. */
export const DEFAULT_HORIZON_DAYS = 5 * 366;
/** Largest horizon accepted (a century), so a caller cannot ask for an endless search. */
export const MAX_HORIZON_DAYS = 36_600;

export function resolveHorizonDays(options: EngineOptions | undefined, fallback = DEFAULT_HORIZON_DAYS): number {
  const h = options?.horizonDays ?? fallback;
  if (!Number.isFinite(h) || h <= 0 || h > MAX_HORIZON_DAYS) {
    throw invalidInput(`horizonDays must be between 0 and ${MAX_HORIZON_DAYS}, got ${String(h)}`);
  }
  return h;
}

/** Budget in minutes: businessDays × businessDayMinutes + businessMinutes (non-negative integers). */
export function budgetMinutes(sla: SlaBudget, businessDayMinutes: number): number {
  const days = sla.businessDays ?? 0;
  const minutes = sla.businessMinutes ?? 0;
  const daysOk = Number.isInteger(days) && days >= 0;
  const minutesOk = Number.isInteger(minutes) && minutes >= 0;
  if (!daysOk || !minutesOk) {
    const issues = [];
    if (!daysOk) issues.push({ path: ['sla', 'businessDays'], message: 'must be a non-negative integer' });
    if (!minutesOk) issues.push({ path: ['sla', 'businessMinutes'], message: 'must be a non-negative integer' });
    throw invalidInput('sla budget must be non-negative integers', issues);
  }
  return days * businessDayMinutes + minutes;
}

/**
 * Computes the due date of an SLA.
 *
 * - The received time is normalised to UTC (a local time in receivedTimezone: a nonexistent one
 *   moves forward by the gap, an ambiguous one takes the earlier offset).
 * - Consumption starts at the first business minute at or after it (a received time with seconds
 *   starts at the next whole minute); the due date is the end of the last consumed minute.
 * - A zero budget gives the received instant when the calendar is open then, else the next opening;
 *   locationsUsed is then empty (no minute was consumed).
 * - dueDateTimeLocal is written in receivedTimezone, or, without one, in the offset the received
 *   instant was written with (Z → UTC).
 *
 * Throws CalendarEngineError: 'inactive-calendar' for an inactive calendar, 'unreachable' when the
 * budget cannot be consumed within the horizon, 'invalid-input' for bad input.
 */
export function calculateSla(
  calendar: CalendarSnapshot | CompiledCalendar,
  request: SlaRequest,
  options?: EngineOptions,
): SlaResult {
  const compiled = toCompiledCalendar(calendar);
  if (!compiled.active) {
    throw new CalendarEngineError('inactive-calendar', `calendar ${compiled.calendarCode} is not active`);
  }
  const horizonDays = resolveHorizonDays(options);
  const budget = budgetMinutes(request.sla ?? {}, compiled.businessDayMinutes);
  const zone = request.receivedTimezone;
  if (zone !== undefined) assertTimeZone(zone, 'receivedTimezone');
  const received = parseInstant(request.receivedDateTime, zone, 'receivedDateTime');
  const t0 = received.instant;
  // Consumption runs on whole minutes from the first minute boundary at or after t0.
  const start = Math.ceil(t0 / MINUTE_MS) * MINUTE_MS;
  const limit = start + horizonDays * DAY_MS;
  const index = openTimeIndexOf(compiled);
  if (index.hasNoHours) throw unreachableError(budget, horizonDays, compiled.calendarCode);

  const locs = compiled.locations;
  const used = new Uint8Array(locs.length);
  // A zero budget looks from t0 itself (a received instant inside an open minute is its own due
  // date); a positive one consumes whole minutes from `start`.
  const due = budget === 0 ? index.firstOpen(t0, limit) : index.consume(start, limit, budget * MINUTE_MS, used);
  if (due === undefined) throw unreachableError(budget, horizonDays, compiled.calendarCode);

  const locationsUsed: string[] = [];
  for (let i = 0; i < locs.length; i++) if (used[i]) locationsUsed.push((locs[i] as CompiledLocation).code);
  return {
    receivedDateTimeUtc: formatUtc(t0),
    dueDateTimeUtc: formatUtc(due),
    dueDateTimeLocal:
      zone !== undefined ? formatInZone(due, zone) : formatWithOffset(due, received.writtenOffset ?? 0),
    totalBusinessMinutesConsumed: budget,
    calendarCode: compiled.calendarCode,
    locationsUsed,
  };
}
