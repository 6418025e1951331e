/**
 * Availability: the union of the calendar's enabled locations between two instants, as ordered,
 * non-overlapping windows split wherever the set of open locations changes.
 */
import { type CompiledCalendar, toCompiledCalendar } from './calendar-model.js';
import { CalendarEngineError, invalidInput } from './errors.js';
import { DAY_MS, MINUTE_MS, type InstantInput, assertTimeZone, formatUtc, parseInstant } from './local-time.js';
import { Timeline } from './open-intervals.js';
import type { AvailabilityWindow, CalendarSnapshot } from './types.js';

/** Longest availability range accepted; longer answers CalendarEngineError('span-too-large'). */
export const MAX_AVAILABILITY_SPAN_DAYS = 366;

export interface AvailabilityRequest {
  /** Instant or local date-time/date (read in `timezone`); inclusive. */
  from: InstantInput;
  /** Instant or local date-time/date (read in `timezone`); exclusive. */
  to: InstantInput;
  /** IANA zone for a `from`/`to` written without an offset. */
  timezone?: string;
}

/**
 * Windows of the union within [from, to), clipped to the range. Each has ISO UTC start/end,
 * durationMinutes = (end - start) in minutes (whole unless from/to carry seconds), and the codes
 * of the locations open throughout it, in snapshot order. An inactive calendar has no windows.
 */
export function computeAvailability(
  calendar: CalendarSnapshot | CompiledCalendar,
  request: AvailabilityRequest,
): AvailabilityWindow[] {
  const compiled = toCompiledCalendar(calendar);
  if (request.timezone !== undefined) assertTimeZone(request.timezone);
  const from = parseInstant(request.from, request.timezone, 'from').instant;
  const to = parseInstant(request.to, request.timezone, 'to').instant;
  if (to < from) {
    throw invalidInput('to must not be before from', [{ path: ['to'], message: 'must not be before from' }]);
  }
  if (to - from > MAX_AVAILABILITY_SPAN_DAYS * DAY_MS) {
    throw new CalendarEngineError(
      'span-too-large',
      `availability spans at most ${MAX_AVAILABILITY_SPAN_DAYS} days`,
      [{ path: ['to'], message: `at most ${MAX_AVAILABILITY_SPAN_DAYS} days after from` }],
    );
  }
  if (!compiled.active) return [];
  const codes = compiled.locations.map((l) => l.code);
  return new Timeline(compiled).segments(from, to).map((s) => ({
    start: formatUtc(s.start),
    end: formatUtc(s.end),
    durationMinutes: (s.end - s.start) / MINUTE_MS,
    activeLocations: s.locs.map((i) => codes[i] as string),
  }));
}
