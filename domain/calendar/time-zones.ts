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
import { invalidInput } from './errors.js';
import * as civil from './civil-date.js';

// Bound once: under tsx's CommonJS transform every read of an imported binding is a getter call,
// a measurable share of building the open-time index.
const { DAY_MS, HOUR_MS, MINUTE_MS, civilFromDays, daysFromCivil } = civil;

// ---------------------------------------------------------------------------------------------
// Time zones

/** True for an IANA zone name that Intl knows (UTC included). Only valid zones are cached. */
export function isValidTimeZone(zone: string): boolean {
  if (typeof zone !== 'string' || zone.length === 0) return false;
  // Intl on Node 22+ also accepts UTC offsets ('+02:00', ECMA-402 offset zones); an offset is not
  // an IANA zone (no daylight saving rules), and no IANA name starts with a sign.
  if (zone.startsWith('+') || zone.startsWith('-')) return false;
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
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
  const v = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  let bc = false;
  for (const p of formatterFor(zone).formatToParts(new Date(instant))) {
    if (p.type === 'era') bc = p.value === 'BC' || p.value === 'B';
    else if (Object.hasOwn(v, p.type)) v[p.type as keyof typeof v] = Number(p.value);
  }
  const { month, day, hour, minute, second } = v;
  const year = bc ? 1 - v.year : v.year;
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
  return offsetIn(tableFor(zone, instant), instant);
}

/** Offset a year table gives at `instant` (which must lie in the table's year). */
function offsetIn(t: YearTable, instant: number): number {
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
    return offsetIn(this.tableAt(instant), instant);
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
    // The offset at wall - before is `before`, unless a transition and its reversal lie within two
    // days (not seen in practice): then that probe's offset is taken.
    return wall - zoneOffset(zone, wall - before);
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
