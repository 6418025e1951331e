/**
 * Is-open: which locations are open at an instant, and when that set next changes.
 */
import { type CompiledCalendar, toCompiledCalendar } from './calendar-model.js';
import { DAY_MS, type InstantInput, formatUtc, parseInstant } from './local-time.js';
import { Timeline } from './open-intervals.js';
import { resolveHorizonDays } from './sla.js';
import type { CalendarSnapshot, EngineOptions, IsOpenResult } from './types.js';

/** Default look-ahead for nextChangeAt: a year (is-open is polled; beyond that it answers null). */
export const DEFAULT_IS_OPEN_HORIZON_DAYS = 366;

/**
 * `open` when at least one enabled location is open at `at` (a window's end instant is closed);
 * `openLocations` in snapshot order; `nextChangeAt` the first later instant at which the set of
 * open locations differs (ISO UTC), or null when it does not change within the horizon
 * (options.horizonDays, default DEFAULT_IS_OPEN_HORIZON_DAYS). Pass the
 * current time as `at` (injected clock). An inactive calendar is closed with no next change.
 */
export function isCalendarOpen(
  calendar: CalendarSnapshot | CompiledCalendar,
  at: InstantInput,
  options?: EngineOptions & { timezone?: string },
): IsOpenResult {
  const compiled = toCompiledCalendar(calendar);
  const horizonDays = resolveHorizonDays(options, DEFAULT_IS_OPEN_HORIZON_DAYS);
  const t = parseInstant(at, options?.timezone, 'at').instant;
  const timeline = new Timeline(compiled);
  if (!compiled.active || timeline.hasNoHours) return { open: false, openLocations: [], nextChangeAt: null };
  const found: { current: number[] | undefined; nextChange: number | undefined } = {
    current: undefined,
    nextChange: undefined,
  };
  timeline.walk(t, t + horizonDays * DAY_MS, 2 * DAY_MS, (start, _end, locs) => {
    if (found.current === undefined) {
      found.current = locs; // the piece that contains `at`
      return false;
    }
    found.nextChange = start; // consecutive pieces always differ in their set
    return true;
  });
  const codes = compiled.locations.map((l) => l.code);
  const openLocations = (found.current ?? []).map((i) => codes[i] as string);
  return {
    open: openLocations.length > 0,
    openLocations,
    nextChangeAt: found.nextChange === undefined ? null : formatUtc(found.nextChange),
  };
}

/**
 * Whether one location (`locationCode`) of the calendar is open at `at`, and if not, when it next
 * opens (ISO UTC; null within the horizon: never). Undefined when the calendar has no such
 * location. Used where the question is one place's hours, e.g. a callee's calling window.
 */
export function nextLocationOpening(
  calendar: CalendarSnapshot | CompiledCalendar,
  at: InstantInput,
  locationCode: string,
  options?: EngineOptions,
): { open: boolean; opensAt: string | null } | undefined {
  const compiled = toCompiledCalendar(calendar);
  const index = compiled.locations.findIndex((l) => l.code === locationCode);
  if (index < 0) return undefined;
  const horizonDays = resolveHorizonDays(options, DEFAULT_IS_OPEN_HORIZON_DAYS);
  const t = parseInstant(at, undefined, 'at').instant;
  const timeline = new Timeline(compiled);
  if (!compiled.active || timeline.hasNoHours) return { open: false, opensAt: null };
  let first = true;
  let openNow = false;
  let opensAt: number | undefined;
  timeline.walk(t, t + horizonDays * DAY_MS, 2 * DAY_MS, (start, _end, locs) => {
    const open = locs.includes(index);
    if (first) {
      first = false;
      openNow = open;
      return open;
    }
    if (!open) return false;
    opensAt = start;
    return true;
  });
  return { open: openNow, opensAt: openNow || opensAt === undefined ? null : formatUtc(opensAt) };
}
