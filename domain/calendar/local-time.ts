/**
 * Local-time arithmetic on epoch milliseconds, without building date objects in hot loops.
 *
 * Vocabulary:
 * - an *instant* is UTC epoch milliseconds;
 * - a *wall* value is the local wall-clock reading written as if it were UTC epoch milliseconds
 *   (wall = instant + offset); a *wall day* is floor(wall / DAY_MS), the local date as an
 *   epoch-day number (0 = 1970-01-01).
 *
 * Zone offsets come from Intl once per zone and year: the year's transitions are found (daily
 * probes, then a binary search to the minute) and cached, so a lookup is a short scan. Offsets are
 * rounded to whole minutes (true for every zone since the 1970s).
 */
import { IANAZone } from 'luxon';
import { invalidInput } from './errors.js';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const MINUTES_PER_DAY = 1440;

// ---------------------------------------------------------------------------------------------
// Civil dates (proleptic Gregorian) <-> epoch days, after H. Hinnant's algorithms.

/** Epoch day of a civil date (month 1..12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/** Civil date of an epoch day. */
export function civilFromDays(epochDay: number): CivilDate {
  const z = epochDay + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** ISO day of week of an epoch day: 1 = Monday .. 7 = Sunday (1970-01-01 was a Thursday). */
export function isoDayOfWeek(epochDay: number): number {
  return ((((epochDay + 3) % 7) + 7) % 7) + 1;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (MONTH_DAYS[month - 1] as number);
}

/** Value of the ASCII digits text[from..to), or -1 if any is not a digit. */
function digits(text: string, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** Parses a real `YYYY-MM-DD` date to its epoch day, or returns undefined. */
export function tryParseDateKey(text: string): number | undefined {
  if (typeof text !== 'string' || text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) {
    return undefined;
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return daysFromCivil(year, month, day);
}

export function parseDateKey(text: string, what = 'date'): number {
  const d = tryParseDateKey(text);
  if (d === undefined) throw invalidInput(`${what} must be a real date YYYY-MM-DD, got "${text}"`);
  return d;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

export function formatDateKey(epochDay: number): string {
  const { year, month, day } = civilFromDays(epochDay);
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}`;
}

// ---------------------------------------------------------------------------------------------
// Times of day

/** `HH:mm` → minutes after midnight; `24:00` only when `allowEndOfDay`. Undefined when invalid. */
export function tryParseTimeOfDay(text: string, allowEndOfDay: boolean): number | undefined {
  if (typeof text !== 'string' || text.length !== 5 || text.charCodeAt(2) !== 58) return undefined;
  const h = digits(text, 0, 2);
  const m = digits(text, 3, 5);
  if (h < 0 || m < 0 || m > 59) return undefined;
  if (h === 24 && m === 0) return allowEndOfDay ? MINUTES_PER_DAY : undefined;
  if (h > 23) return undefined;
  return h * 60 + m;
}

export function parseTimeOfDay(text: string, allowEndOfDay: boolean, what = 'time'): number {
  const t = tryParseTimeOfDay(text, allowEndOfDay);
  if (t === undefined) {
    throw invalidInput(`${what} must be HH:mm${allowEndOfDay ? ' (24:00 allowed)' : ''}, got "${text}"`);
  }
  return t;
}

// ---------------------------------------------------------------------------------------------
// Time zones

const validZones = new Map<string, boolean>();

/** True for an IANA zone name that Intl knows (UTC included). */
export function isValidTimeZone(zone: string): boolean {
  let ok = validZones.get(zone);
  if (ok === undefined) {
    ok = typeof zone === 'string' && zone.length > 0 && IANAZone.isValidZone(zone);
    validZones.set(zone, ok);
  }
  return ok;
}

export function assertTimeZone(zone: string, what = 'timezone'): void {
  if (!isValidTimeZone(zone)) throw invalidInput(`${what} must be an IANA time zone, got "${zone}"`);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Offset (wall - instant, ms, whole minutes) straight from Intl. Slow; only used to build tables. */
function intlOffset(zone: string, instant: number): number {
  const parts = formatterFor(zone).formatToParts(new Date(instant));
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let bc = false;
  for (const p of parts) {
    switch (p.type) {
      case 'year':
        year = Number(p.value);
        break;
      case 'month':
        month = Number(p.value);
        break;
      case 'day':
        day = Number(p.value);
        break;
      case 'hour':
        hour = Number(p.value);
        break;
      case 'minute':
        minute = Number(p.value);
        break;
      case 'second':
        second = Number(p.value);
        break;
      case 'era':
        bc = p.value === 'BC' || p.value === 'B';
        break;
      default:
        break;
    }
  }
  if (bc) year = 1 - year;
  const wall = daysFromCivil(year, month, day) * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS + second * 1000;
  const floored = instant - (((instant % 1000) + 1000) % 1000);
  return Math.round((wall - floored) / MINUTE_MS) * MINUTE_MS;
}

/**
 * Spacing of the probes that look for offset transitions: a day. (A week is not enough: some
 * Brazilian zones kept DST for only one week in October 2000.)
 */
const PROBE_MS = DAY_MS;

interface YearTable {
  start: number; // instant, inclusive
  end: number; // instant, exclusive
  initial: number; // offset at start
  at: number[]; // transition instants, ascending
  offsets: number[]; // offset from at[i] on
}

const yearTables = new Map<string, Map<number, YearTable>>();
const lastTable = new Map<string, YearTable>();

function buildYearTable(zone: string, year: number): YearTable {
  const start = daysFromCivil(year, 1, 1) * DAY_MS;
  const end = daysFromCivil(year + 1, 1, 1) * DAY_MS;
  const initial = intlOffset(zone, start);
  const at: number[] = [];
  const offsets: number[] = [];
  let prevT = start; // offset prevO holds at prevT
  let prevO = initial;
  let t = start;
  while (t < end) {
    const probe = Math.min(t + PROBE_MS, end);
    const o = intlOffset(zone, probe);
    if (o === prevO) {
      prevT = probe;
      t = probe;
      continue;
    }
    // A transition in (prevT, probe]: binary search for its first minute.
    let lo = prevT;
    let hi = probe;
    while (hi - lo > MINUTE_MS) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
      if (intlOffset(zone, mid) === prevO) lo = mid;
      else hi = mid;
    }
    const next = intlOffset(zone, hi);
    at.push(hi);
    offsets.push(next);
    // Probe on from the transition, so a second one inside the same probe day is still found.
    prevT = hi;
    prevO = next;
    t = hi;
  }
  return { start, end, initial, at, offsets };
}

function tableFor(zone: string, instant: number): YearTable {
  const last = lastTable.get(zone);
  if (last && instant >= last.start && instant < last.end) return last;
  const year = civilFromDays(Math.floor(instant / DAY_MS)).year;
  let byYear = yearTables.get(zone);
  if (!byYear) {
    byYear = new Map();
    yearTables.set(zone, byYear);
  }
  let table = byYear.get(year);
  if (!table) {
    table = buildYearTable(zone, year);
    byYear.set(year, table);
  }
  lastTable.set(zone, table);
  return table;
}

/** Offset of `zone` at `instant`, in ms (wall = instant + offset). */
export function zoneOffset(zone: string, instant: number): number {
  const t = tableFor(zone, instant);
  let o = t.initial;
  const at = t.at;
  for (let i = 0; i < at.length; i++) {
    if (instant >= (at[i] as number)) o = t.offsets[i] as number;
    else break;
  }
  return o;
}

/**
 * Offset lookups for one zone without the per-call map lookup; `constantOffset` tells whether a
 * whole stretch of time has one offset (then wall → instant is a subtraction).
 */
export class ZoneClock {
  private table: YearTable | undefined;

  constructor(readonly zone: string) {}

  private tableAt(instant: number): YearTable {
    const t = this.table;
    if (t && instant >= t.start && instant < t.end) return t;
    const fresh = tableFor(this.zone, instant);
    this.table = fresh;
    return fresh;
  }

  offset(instant: number): number {
    const t = this.tableAt(instant);
    let o = t.initial;
    const at = t.at;
    for (let i = 0; i < at.length; i++) {
      if (instant >= (at[i] as number)) o = t.offsets[i] as number;
      else break;
    }
    return o;
  }

  /** The offset when it is the same throughout [from, to] (within one year table), else undefined. */
  constantOffset(from: number, to: number): number | undefined {
    const t = this.tableAt(from);
    if (to >= t.end) return undefined;
    const at = t.at;
    for (let i = 0; i < at.length; i++) {
      const x = at[i] as number;
      if (x > from && x <= to) return undefined;
    }
    return this.offset(from);
  }

  /** As `wallToInstant`. */
  wallToInstant(wall: number): number {
    return wallToInstant(this.zone, wall);
  }

  instantToWall(instant: number): number {
    return instant + this.offset(instant);
  }
}

/** Wall-clock reading of an instant in `zone`. */
export function instantToWall(zone: string, instant: number): number {
  return instant + zoneOffset(zone, instant);
}

/**
 * Instant of a wall-clock reading in `zone`. A reading that does not exist (spring-forward gap)
 * moves forward by the gap (it is read with the offset in force before the gap: 02:30 in New York
 * on a spring-forward day becomes 03:30 EDT); an ambiguous one (fall-back overlap) takes the
 * earlier instant, i.e. the earlier offset (01:30 on a fall-back day is 01:30 EDT).
 */
export function wallToInstant(zone: string, wall: number): number {
  const before = zoneOffset(zone, wall - DAY_MS);
  const after = zoneOffset(zone, wall + DAY_MS);
  if (before === after) {
    const t = wall - before;
    if (zoneOffset(zone, t) === before) return t;
    // A transition and its reversal within two days (not seen in practice): fall back to a probe.
    const o = zoneOffset(zone, t);
    return wall - o;
  }
  const tBefore = wall - before;
  const tAfter = wall - after;
  const validBefore = zoneOffset(zone, tBefore) === before;
  const validAfter = zoneOffset(zone, tAfter) === after;
  if (validBefore && validAfter) return Math.min(tBefore, tAfter);
  if (validBefore) return tBefore;
  if (validAfter) return tAfter;
  return tBefore; // gap: moved forward by the gap
}

// ---------------------------------------------------------------------------------------------
// Instants from input text

const ISO_LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?$/;
const OFFSET_RE = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/** A parsed instant input: the instant and, when the text carried one, its fixed offset. */
export interface ParsedInstant {
  instant: number;
  /** Offset written in the input (ms), when it was an instant with an offset or Z. */
  writtenOffset?: number;
}

/**
 * Parses a local ISO date-time (`2024-03-10T02:30`, seconds and fractions optional, or a bare date
 * meaning local midnight) to its wall value, or undefined.
 */
export function tryParseLocalDateTime(text: string): number | undefined {
  const m = ISO_LOCAL_RE.exec(text);
  if (!m) return undefined;
  const day = tryParseDateKey(`${m[1]}-${m[2]}-${m[3]}`);
  if (day === undefined) return undefined;
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  return day * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS + second * 1000 + ms;
}

/**
 * Parses an ISO instant with an offset or `Z` (`2024-03-10T07:30:00Z`, `...+01:00`, `...+0100`).
 * Undefined when the text is not one.
 */
export function tryParseOffsetDateTime(text: string): ParsedInstant | undefined {
  const t = text.trim();
  const tIndex = t.search(/[T ]/);
  if (tIndex < 0) return undefined;
  const off = OFFSET_RE.exec(t.slice(tIndex + 1));
  if (!off) return undefined;
  const local = tryParseLocalDateTime(t.slice(0, t.length - off[0].length));
  if (local === undefined) return undefined;
  let offset = 0;
  const o = off[0];
  if (o.toUpperCase() !== 'Z') {
    const digits = o.slice(1).replace(':', '');
    const h = Number(digits.slice(0, 2));
    const mi = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (h > 18 || mi > 59) return undefined;
    offset = (o[0] === '-' ? -1 : 1) * (h * HOUR_MS + mi * MINUTE_MS);
  }
  return { instant: local - offset, writtenOffset: offset };
}

/** An instant as input: ISO text (with offset/Z, or local in `timezone`), a Date, or epoch ms. */
export type InstantInput = string | Date | number;

/**
 * Normalises an instant input to UTC epoch ms. Text without an offset is a local date-time in
 * `timezone` (a bare date is local midnight), converted with the gap/overlap rules of
 * `wallToInstant`; it is invalid input when no timezone is given.
 */
export function parseInstant(input: InstantInput, timezone: string | undefined, what = 'instant'): ParsedInstant {
  if (input instanceof Date) {
    const t = input.getTime();
    if (Number.isNaN(t)) throw invalidInput(`${what} is an invalid Date`);
    return { instant: t };
  }
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw invalidInput(`${what} must be a finite epoch-ms number`);
    return { instant: input };
  }
  if (typeof input !== 'string') throw invalidInput(`${what} must be an ISO date-time`);
  const withOffset = tryParseOffsetDateTime(input);
  if (withOffset) return withOffset;
  const wall = tryParseLocalDateTime(input.trim());
  if (wall === undefined) {
    throw invalidInput(`${what} must be an ISO-8601 date-time (local, or with an offset or Z), got "${input}"`);
  }
  if (timezone === undefined) {
    throw invalidInput(`${what} "${input}" has no offset, so a time zone is required`);
  }
  assertTimeZone(timezone);
  return { instant: wallToInstant(timezone, wall) };
}

// ---------------------------------------------------------------------------------------------
// Formatting

export function formatUtc(instant: number): string {
  return new Date(instant).toISOString();
}

function formatOffset(offset: number): string {
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset) / MINUTE_MS;
  return `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

/** ISO local date-time with its offset, e.g. `2024-03-11T10:00:00.000-04:00`. */
export function formatWithOffset(instant: number, offset: number): string {
  const iso = new Date(instant + offset).toISOString(); // wall clock written as if UTC
  return `${iso.slice(0, -1)}${formatOffset(offset)}`;
}

/** ISO local date-time of `instant` in `zone`, with the zone's offset at that instant. */
export function formatInZone(instant: number, zone: string): string {
  return formatWithOffset(instant, zoneOffset(zone, instant));
}
