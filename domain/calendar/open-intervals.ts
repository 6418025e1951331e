/**
 * Open intervals of a compiled calendar as UTC instants.
 *
 * Per location and local day, each window that belongs to the day is laid out on the wall clock
 * ([day 00:00 + start, day 00:00 + end), possibly reaching into the next date), cut by the holiday
 * masks of the dates it covers (a holiday governs every minute whose local date is its date, so
 * the after-midnight part of a window that started the evening before is cut by the next date's
 * holiday), and each remaining piece's ends are converted to instants with `wallToInstant` (gap
 * moves forward, overlap takes the earlier offset), which gives real elapsed lengths across DST.
 * Results are cached per (location, local day) for the life of one Timeline (one chunk of the
 * open-time index, or one availability / is-open answer).
 */
import type { CompiledCalendar, CompiledLocation, DayMask } from './calendar-model.js';
import * as model from './calendar-model.js';
import * as civil from './civil-date.js';
import type { Segment } from './intervals.js';
import * as intervals from './intervals.js';
import * as zones from './time-zones.js';

// Bound once: under tsx's CommonJS transform every read of an imported binding is a getter call,
// a measurable share of building the open-time index.
const { maskForDay } = model;
const { DAY_MS, HOUR_MS, MINUTES_PER_DAY, MINUTE_MS, isoDayOfWeek } = civil;
const { mergeIntervals, sweepUnion } = intervals;
const { wallToInstant } = zones;

const DST_MARGIN_MS = 3 * HOUR_MS;
const NO_MASK: DayMask = { from: 0, until: MINUTES_PER_DAY };
const EMPTY: number[] = [];

/** Widest zone offset in either direction (UTC+14 / UTC-12) plus a DST gap, for safe bounds. */
const OFFSET_BOUND_MS = 15 * 3_600_000;

/**
 * Pushes the part of wall-minute range [a, b) on local day `day` allowed by `mask`, as instants.
 * `fixed` is the zone offset when it is constant around the day (then conversion is a subtraction).
 */
function pushPiece(
  out: number[],
  loc: CompiledLocation,
  fixed: number | undefined,
  day: number,
  a: number,
  b: number,
  mask: DayMask,
): void {
  const base = day * MINUTES_PER_DAY;
  const s = Math.max(a, base + mask.from);
  const e = Math.min(b, base + mask.until);
  if (e <= s) return;
  if (fixed !== undefined) {
    out.push(s * MINUTE_MS - fixed, e * MINUTE_MS - fixed);
    return;
  }
  const si = wallToInstant(loc.zone, s * MINUTE_MS);
  const ei = wallToInstant(loc.zone, e * MINUTE_MS);
  if (ei > si) out.push(si, ei); // a piece inside a DST gap can vanish
}

/** Instants (flat, unsorted) of the windows that belong to local day `day` at `loc`. */
export function computeDayIntervals(loc: CompiledLocation, day: number): number[] {
  const windows = loc.week[isoDayOfWeek(day) - 1];
  if (!windows || windows.length === 0) return EMPTY;
  let maskToday: DayMask | undefined | null = null; // null = not looked up yet
  let maskTomorrow: DayMask | undefined | null = null;
  let out: number[] | undefined;
  const base = day * MINUTES_PER_DAY;
  const midnight = base + MINUTES_PER_DAY;
  // Walls of this day's windows lie in [day, day + 2 days); their instants within the bound.
  const fixed = loc.clock.constantOffset(day * DAY_MS - OFFSET_BOUND_MS, (day + 2) * DAY_MS + OFFSET_BOUND_MS);
  for (const w of windows) {
    if (day < w.fromDay || day > w.untilDay) continue;
    out ??= [];
    const a = base + w.start;
    const b = base + w.end;
    if (a < midnight) {
      if (maskToday === null) maskToday = maskForDay(loc, day);
      pushPiece(out, loc, fixed, day, a, Math.min(b, midnight), maskToday ?? NO_MASK);
    }
    if (b > midnight) {
      if (maskTomorrow === null) maskTomorrow = maskForDay(loc, day + 1);
      pushPiece(out, loc, fixed, day + 1, Math.max(a, midnight), b, maskTomorrow ?? NO_MASK);
    }
  }
  return out ?? EMPTY;
}

/** Union segments of a calendar's enabled locations, computed range by range with day caches. */
export class Timeline {
  private readonly dayCache: Map<number, number[]>[];

  constructor(readonly calendar: CompiledCalendar) {
    this.dayCache = [];
    for (let i = 0; i < calendar.locations.length; i++) this.dayCache.push(new Map());
  }

  /** True when no enabled location has any applicable window at all. */
  get hasNoHours(): boolean {
    for (const l of this.calendar.locations) if (l.hasWindows) return false;
    return true;
  }

  private dayIntervals(li: number, day: number): number[] {
    const cache = this.dayCache[li] as Map<number, number[]>;
    let iv = cache.get(day);
    if (iv === undefined) {
      iv = computeDayIntervals(this.calendar.locations[li] as CompiledLocation, day);
      cache.set(day, iv);
    }
    return iv;
  }

  /** Merged open intervals of location `li` clipped to [from, to). */
  locationIntervals(li: number, from: number, to: number): number[] {
    const loc = this.calendar.locations[li] as CompiledLocation;
    if (!loc.hasWindows || to <= from) return EMPTY;
    // Windows of local day d lie within wall [d, d + 1 day], or [d, d + 2 days] when some window
    // runs past midnight. Walls are not monotonic in instants around DST changes (gaps, repeated
    // hours), so the bounds keep a margin of a few hours.
    const firstDay = Math.floor((loc.clock.instantToWall(from) - DST_MARGIN_MS) / DAY_MS) - (loc.crossesMidnight ? 2 : 1);
    const lastDay = Math.floor((loc.clock.instantToWall(to) + DST_MARGIN_MS) / DAY_MS);
    const flat: number[] = [];
    for (let d = firstDay; d <= lastDay; d++) {
      const iv = this.dayIntervals(li, d);
      for (let k = 0; k < iv.length; k += 2) {
        const s = Math.max(iv[k] as number, from);
        const e = Math.min(iv[k + 1] as number, to);
        if (e > s) flat.push(s, e);
      }
    }
    return mergeIntervals(flat);
  }

  /** Ordered union segments within [from, to), split where the set of open locations changes. */
  segments(from: number, to: number): Segment[] {
    const L = this.calendar.locations.length;
    if (L === 0 || to <= from) return [];
    const per: number[][] = new Array<number[]>(L);
    for (let li = 0; li < L; li++) per[li] = this.locationIntervals(li, from, to);
    return sweepUnion(per);
  }

  /**
   * Visits the union from `from` towards `limit` in growing ranges, open segments and the closed
   * gaps between them alike (a gap has `locs` = []). Pieces that touch across range borders with
   * the same set are merged. The visitor returns true to stop; returns whether it was stopped.
   */
  walk(
    from: number,
    limit: number,
    firstRangeMs: number,
    visit: (start: number, end: number, locs: number[]) => boolean,
  ): boolean {
    let cursor = from;
    let range = Math.max(DAY_MS, firstRangeMs);
    const maxRange = 128 * DAY_MS;
    let pend: Segment | undefined; // held back in case the next range continues it
    const emit = (s: number, e: number, locs: number[]): boolean => {
      if (pend && pend.end === s && (pend.locs.length === locs.length && pend.locs.every((x, i) => x === locs[i]))) {
        pend.end = e;
        return false;
      }
      if (pend && visit(pend.start, pend.end, pend.locs)) return true;
      pend = { start: s, end: e, locs };
      return false;
    };
    while (cursor < limit) {
      const to = Math.min(cursor + range, limit);
      let pos = cursor;
      for (const seg of this.segments(cursor, to)) {
        if (seg.start > pos && emit(pos, seg.start, [])) return true;
        if (emit(seg.start, seg.end, seg.locs)) return true;
        pos = seg.end;
      }
      if (pos < to && emit(pos, to, [])) return true;
      cursor = to;
      range = Math.min(range * 2, maxRange);
    }
    return pend !== undefined && visit(pend.start, pend.end, pend.locs);
  }
}
