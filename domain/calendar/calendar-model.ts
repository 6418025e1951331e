/**
 * Compiles a calendar snapshot (once per calendar version when the caller keeps the result, else
 * once per calculation) into lookup-friendly form: per location a weekly template of its
 * applicable windows (minutes after local midnight) and its holidays indexed by local epoch day
 * (dated) and by month/day (recurring).
 */
import { invalidInput } from './errors.js';
import * as civil from './civil-date.js';
import { ZoneClock, isValidTimeZone } from './time-zones.js';
import type { CalendarSnapshot, SnapshotHoliday, SnapshotHours, SnapshotLocation } from './types.js';

// Bound once: under tsx's CommonJS transform every read of an imported binding is a getter call,
// a measurable share of building the open-time index.
const { MINUTES_PER_DAY, civilFromDays, tryParseDateKey, tryParseTimeOfDay } = civil;

export const DEFAULT_BUSINESS_DAY_MINUTES = 480;

/** One weekly window, in minutes after its start day's local midnight; end may exceed 1440. */
export interface CompiledWindow {
  start: number;
  end: number;
  /** Inclusive epoch-day bounds of effectiveFrom/effectiveUntil (±Infinity when absent). */
  fromDay: number;
  untilDay: number;
}

/**
 * The part of a local date that holidays leave open, in minutes after midnight: [from, until).
 * from >= until means the whole date is closed.
 */
export interface DayMask {
  from: number;
  until: number;
}

/** Holiday masks by key (epoch day, or month * 100 + day), keys ascending and unique. */
export interface DayIndex {
  keys: number[];
  masks: DayMask[];
}

/** Collects (key, mask) pairs; several masks on one key intersect. Cheaper than a Map to build. */
class DayIndexBuilder {
  private keys: number[] = [];
  private masks: DayMask[] = [];
  private sorted = true;

  add(key: number, mask: DayMask): void {
    const n = this.keys.length;
    if (n > 0 && (this.keys[n - 1] as number) >= key) this.sorted = false;
    this.keys.push(key);
    this.masks.push(mask);
  }

  build(): DayIndex {
    if (this.sorted) return { keys: this.keys, masks: this.masks };
    const order = this.keys.map((_, i) => i).sort((a, b) => (this.keys[a] as number) - (this.keys[b] as number));
    const keys: number[] = [];
    const masks: DayMask[] = [];
    for (const i of order) {
      const k = this.keys[i] as number;
      const m = this.masks[i] as DayMask;
      if (keys.length > 0 && keys[keys.length - 1] === k) masks[masks.length - 1] = intersectMask(masks[masks.length - 1], m);
      else {
        keys.push(k);
        masks.push(m);
      }
    }
    return { keys, masks };
  }
}

/** Binary search of a DayIndex. */
function findDay(index: DayIndex, key: number): DayMask | undefined {
  const keys = index.keys;
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const k = keys[mid] as number;
    if (k === key) return index.masks[mid];
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

export interface CompiledLocation {
  index: number;
  code: string;
  zone: string;
  clock: ZoneClock;
  /** week[isoDayOfWeek - 1]: windows that belong to that weekday. */
  week: CompiledWindow[][];
  hasWindows: boolean;
  /** Some window runs past midnight (its intervals reach into the next local date). */
  crossesMidnight: boolean;
  dated: DayIndex;
  /** Keyed month * 100 + day. */
  recurring: DayIndex;
}

/**
 * A validated calendar in lookup form. open-time-index.ts memoises the calendar's index on it:
 * compile one per calendar version and do not mutate it, or the index goes stale.
 */
export interface CompiledCalendar {
  readonly kind: 'compiled-calendar';
  calendarCode: string;
  active: boolean;
  businessDayMinutes: number;
  /** Enabled locations only, in snapshot order. */
  locations: CompiledLocation[];
}

function intersectMask(a: DayMask | undefined, b: DayMask): DayMask {
  if (!a) return b;
  return { from: Math.max(a.from, b.from), until: Math.min(a.until, b.until) };
}

const CLOSED_MASK: DayMask = Object.freeze({ from: 0, until: 0 });

const byStart = (a: CompiledWindow, b: CompiledWindow) => a.start - b.start;

function fieldError(detail: string, path: (string | number)[], message: string) {
  return invalidInput(detail, [{ path, message }]);
}

/** Compiles one window; `li`/`hi` only name the field in an error. */
function compileWindow(h: SnapshotHours, li: number, hi: number): CompiledWindow {
  const day = h.dayOfWeek;
  if (!Number.isInteger(day) || day < 1 || day > 7) {
    throw fieldError(`dayOfWeek must be 1 (Monday) to 7 (Sunday), got ${String(day)}`, ['locations', li, 'hours', hi, 'dayOfWeek'], 'must be 1..7');
  }
  const start = tryParseTimeOfDay(h.startTime, false);
  if (start === undefined) {
    throw fieldError(`startTime must be HH:mm, got "${h.startTime}"`, ['locations', li, 'hours', hi, 'startTime'], 'must be HH:mm');
  }
  let end = tryParseTimeOfDay(h.endTime, true);
  if (end === undefined) {
    throw fieldError(`endTime must be HH:mm or 24:00, got "${h.endTime}"`, ['locations', li, 'hours', hi, 'endTime'], 'must be HH:mm or 24:00');
  }
  // An end not after the start runs past midnight into the next day; it belongs to its start day.
  if (end <= start) end += MINUTES_PER_DAY;
  const fromDay = h.effectiveFrom ? tryParseDateKey(h.effectiveFrom) : -Infinity;
  if (fromDay === undefined) {
    throw fieldError('effectiveFrom must be a date YYYY-MM-DD', ['locations', li, 'hours', hi, 'effectiveFrom'], 'must be YYYY-MM-DD');
  }
  const untilDay = h.effectiveUntil ? tryParseDateKey(h.effectiveUntil) : Infinity;
  if (untilDay === undefined) {
    throw fieldError('effectiveUntil must be a date YYYY-MM-DD', ['locations', li, 'hours', hi, 'effectiveUntil'], 'must be YYYY-MM-DD');
  }
  return { start, end, fromDay, untilDay };
}

/** The open part a holiday leaves on its date; `li`/`hi` only name the field in an error. */
function compileHolidayMask(h: SnapshotHoliday, li: number, hi: number): DayMask {
  if (h.closed) return CLOSED_MASK;
  const from = h.openFrom ? tryParseTimeOfDay(h.openFrom, false) : 0;
  if (from === undefined) {
    throw fieldError(`openFrom must be HH:mm, got "${h.openFrom}"`, ['locations', li, 'holidays', hi, 'openFrom'], 'must be HH:mm');
  }
  const until = h.openUntil ? tryParseTimeOfDay(h.openUntil, true) : MINUTES_PER_DAY;
  if (until === undefined) {
    throw fieldError(`openUntil must be HH:mm or 24:00, got "${h.openUntil}"`, ['locations', li, 'holidays', hi, 'openUntil'], 'must be HH:mm or 24:00');
  }
  // openUntil not after openFrom leaves nothing open: the date is closed.
  return { from, until };
}

/** Validates and compiles a snapshot. Throws CalendarEngineError('invalid-input') on bad data. */
export function compileCalendar(snapshot: CalendarSnapshot): CompiledCalendar {
  const businessDayMinutes = snapshot.businessDayMinutes ?? DEFAULT_BUSINESS_DAY_MINUTES;
  if (!Number.isInteger(businessDayMinutes) || businessDayMinutes <= 0) {
    throw fieldError(`businessDayMinutes must be a positive integer, got ${String(businessDayMinutes)}`, ['businessDayMinutes'], 'must be a positive integer');
  }
  const locations: CompiledLocation[] = [];
  const src = snapshot.locations;
  for (let li = 0; li < src.length; li++) {
    const loc = src[li] as SnapshotLocation;
    if (loc.enabled === false) continue; // disabled locations are ignored
    if (!isValidTimeZone(loc.timezone)) {
      throw fieldError(`timezone of location ${loc.locationCode} must be an IANA time zone, got "${loc.timezone}"`, ['locations', li, 'timezone'], 'must be an IANA time zone');
    }
    const week: CompiledWindow[][] = [[], [], [], [], [], [], []];
    let hasWindows = false;
    let crossesMidnight = false;
    for (let hi = 0; hi < loc.hours.length; hi++) {
      const h = loc.hours[hi] as SnapshotHours;
      if (h.active === false) continue;
      const w = compileWindow(h, li, hi);
      if (w.fromDay > w.untilDay) continue; // an empty effective range never applies
      (week[h.dayOfWeek - 1] as CompiledWindow[]).push(w);
      hasWindows = true;
      if (w.end > MINUTES_PER_DAY) crossesMidnight = true;
    }
    for (const ws of week) if (ws.length > 1) ws.sort(byStart);
    const dated = new DayIndexBuilder();
    const recurring = new DayIndexBuilder();
    for (let hi = 0; hi < loc.holidays.length; hi++) {
      const h = loc.holidays[hi] as SnapshotHoliday;
      const day = tryParseDateKey(h.date);
      if (day === undefined) {
        throw fieldError(`holiday date must be YYYY-MM-DD, got "${h.date}"`, ['locations', li, 'holidays', hi, 'date'], 'must be YYYY-MM-DD');
      }
      const mask = compileHolidayMask(h, li, hi);
      if (h.recurring) {
        // month * 100 + day straight from the text (already validated)
        const key = Number(h.date.slice(5, 7)) * 100 + Number(h.date.slice(8, 10));
        recurring.add(key, mask);
      } else {
        dated.add(day, mask);
      }
    }
    locations.push({
      index: locations.length,
      code: loc.locationCode,
      zone: loc.timezone,
      clock: new ZoneClock(loc.timezone),
      week,
      hasWindows,
      crossesMidnight,
      dated: dated.build(),
      recurring: recurring.build(),
    });
  }
  return {
    kind: 'compiled-calendar',
    calendarCode: snapshot.calendarCode,
    active: snapshot.active,
    businessDayMinutes,
    locations,
  };
}

/**
 * The holiday mask of a local date at a location: the intersection of every holiday on that date
 * (dated ones, and recurring ones by month/day, which matches 29 February only in leap years).
 */
export function maskForDay(loc: CompiledLocation, epochDay: number): DayMask | undefined {
  let mask = findDay(loc.dated, epochDay);
  if (loc.recurring.keys.length > 0) {
    const { month, day } = civilFromDays(epochDay);
    const r = findDay(loc.recurring, month * 100 + day);
    if (r) mask = intersectMask(mask, r);
  }
  return mask;
}

function isCompiled(c: CalendarSnapshot | CompiledCalendar): c is CompiledCalendar {
  return (c as Partial<CompiledCalendar>).kind === 'compiled-calendar';
}

/** A compiled calendar as is, or a snapshot compiled now. */
export function toCompiledCalendar(calendar: CalendarSnapshot | CompiledCalendar): CompiledCalendar {
  return isCompiled(calendar) ? calendar : compileCalendar(calendar);
}
