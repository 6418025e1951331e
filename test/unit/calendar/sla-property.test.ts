/**
 * Property tests: the interval engine against a simple minute-stepping reference written here.
 *
 * The reference builds each location's open intervals with luxon (independent of the engine's
 * own offset tables) following the documented semantics, then steps minute by minute.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  type CalendarSnapshot,
  CalendarEngineError,
  calculateSla,
  computeAvailability,
  isCalendarOpen,
} from '../../../domain/calendar/index.js';

const MIN = 60_000;
const DAY = 86_400_000;

// ---------------------------------------------------------------------------------------------
// Minute-stepping reference

/** Luxon wall → instant: gap moves forward (luxon does that), overlap takes the earlier instant. */
function refWallToInstant(zone: string, y: number, mo: number, d: number, minuteOfDay: number): number {
  const base = DateTime.fromObject({ year: y, month: mo, day: d }, { zone: 'utc' }).plus({ minutes: minuteOfDay });
  const dt = DateTime.fromObject(
    { year: base.year, month: base.month, day: base.day, hour: base.hour, minute: base.minute },
    { zone },
  );
  const t = dt.toMillis();
  const sameWall = (c: number) => {
    const x = DateTime.fromMillis(c, { zone });
    return x.year === base.year && x.month === base.month && x.day === base.day && x.hour === base.hour && x.minute === base.minute;
  };
  for (const k of [180, 120, 90, 60, 45, 30, 15]) {
    if (sameWall(t - k * MIN)) return t - k * MIN;
  }
  return t;
}

const parseHm = (s: string) => (s === '24:00' ? 1440 : Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5)));

interface RefLoc {
  code: string;
  zone: string;
  cache: Map<string, [number, number][]>;
  src: CalendarSnapshot['locations'][number];
}

/** Allowed [from, until) minutes on a local date by holidays, or null when no holiday applies. */
function refHolidayMask(src: RefLoc['src'], date: DateTime): [number, number] | null {
  let mask: [number, number] | null = null;
  const iso = date.toISODate() as string;
  for (const h of src.holidays) {
    const applies = h.recurring ? h.date.slice(5) === iso.slice(5) : h.date === iso;
    if (!applies) continue;
    const m: [number, number] = h.closed ? [0, 0] : [h.openFrom ? parseHm(h.openFrom) : 0, h.openUntil ? parseHm(h.openUntil) : 1440];
    mask = mask ? [Math.max(mask[0], m[0]), Math.min(mask[1], m[1])] : m;
  }
  return mask;
}

/** Instant intervals of the windows that belong to local date `date` (luxon, zone utc date). */
function refDayIntervals(loc: RefLoc, date: DateTime): [number, number][] {
  const key = date.toISODate() as string;
  const hit = loc.cache.get(key);
  if (hit) return hit;
  const out: [number, number][] = [];
  const next = date.plus({ days: 1 });
  for (const h of loc.src.hours) {
    if (h.active === false || h.dayOfWeek !== date.weekday) continue;
    if (h.effectiveFrom && key < h.effectiveFrom) continue;
    if (h.effectiveUntil && key > h.effectiveUntil) continue;
    const s = parseHm(h.startTime);
    let e = parseHm(h.endTime);
    if (e <= s) e += 1440;
    // part on this date
    const pieces: [DateTime, number, number][] = [[date, s, Math.min(e, 1440)]];
    if (e > 1440) pieces.push([next, 0, e - 1440]);
    for (const [d, a, b] of pieces) {
      const mask = refHolidayMask(loc.src, d) ?? [0, 1440];
      const ps = Math.max(a, mask[0]);
      const pe = Math.min(b, mask[1]);
      if (pe <= ps) continue;
      const si = refWallToInstant(loc.zone, d.year, d.month, d.day, ps);
      const ei = refWallToInstant(loc.zone, d.year, d.month, d.day, pe);
      if (ei > si) out.push([si, ei]);
    }
  }
  loc.cache.set(key, out);
  return out;
}

function refLocations(cal: CalendarSnapshot): RefLoc[] {
  return cal.locations
    .filter((l) => l.enabled !== false)
    .map((l) => ({ code: l.locationCode, zone: l.timezone, cache: new Map(), src: l }));
}

/**
 * Per enabled location, one flag per minute of [from, to) (from minute-aligned): 1 when the minute
 * lies inside one of the location's window intervals.
 */
class RefMinutes {
  readonly locs: RefLoc[];
  readonly maps: Uint8Array[];
  constructor(
    cal: CalendarSnapshot,
    readonly from: number,
    readonly to: number,
  ) {
    this.locs = refLocations(cal);
    const n = Math.ceil((to - from) / MIN);
    this.maps = this.locs.map((loc) => {
      const map = new Uint8Array(n);
      const first = DateTime.fromMillis(from, { zone: loc.zone });
      const last = DateTime.fromMillis(to, { zone: loc.zone });
      let date = DateTime.utc(first.year, first.month, first.day).minus({ days: 2 });
      const end = DateTime.utc(last.year, last.month, last.day).plus({ days: 1 });
      for (; date <= end; date = date.plus({ days: 1 })) {
        for (const [s, e] of refDayIntervals(loc, date)) {
          for (let m = Math.max(s, from); m < Math.min(e, to); m += MIN) map[(m - from) / MIN] = 1;
        }
      }
      return map;
    });
  }

  /** Codes of the locations open during the minute starting at m (m minute-aligned, in range). */
  openAt(m: number): string[] {
    const i = Math.floor((m - this.from) / MIN);
    const out: string[] = [];
    this.locs.forEach((l, k) => {
      if ((this.maps[k] as Uint8Array)[i]) out.push(l.code);
    });
    return out;
  }
}

type RefSla = { due: number; used: string[] } | 'unreachable';

function refSla(cal: CalendarSnapshot, received: number, budget: number, horizonDays: number): RefSla {
  const start = Math.ceil(received / MIN) * MIN;
  const limit = start + horizonDays * DAY;
  const minutes = new RefMinutes(cal, Math.floor(received / MIN) * MIN, limit);
  if (budget === 0) {
    if (minutes.openAt(Math.floor(received / MIN) * MIN).length > 0) return { due: received, used: [] };
    for (let m = start; m < limit; m += MIN) if (minutes.openAt(m).length > 0) return { due: m, used: [] };
    return 'unreachable';
  }
  const used = new Set<string>();
  let consumed = 0;
  for (let m = start; m + MIN <= limit; m += MIN) {
    const open = minutes.openAt(m);
    if (open.length === 0) continue;
    for (const c of open) used.add(c);
    consumed++;
    if (consumed === budget) {
      return { due: m + MIN, used: minutes.locs.map((l) => l.code).filter((c) => used.has(c)) };
    }
  }
  return 'unreachable';
}

// ---------------------------------------------------------------------------------------------
// Generators

const ZONES = [
  'America/New_York',
  'Europe/Berlin',
  'Australia/Sydney',
  'Asia/Kolkata',
  'UTC',
  'America/Santiago', // DST at midnight
  'Australia/Lord_Howe', // 30-minute DST
  'Pacific/Chatham', // +12:45/+13:45
];

const hm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const PERIOD_START = Date.UTC(2024, 0, 1);
const PERIOD_DAYS = 500; // 2024-01-01 .. mid 2025, a leap day and several DST changes

const dateIn = (offsetDays: number) => DateTime.fromMillis(PERIOD_START + offsetDays * DAY, { zone: 'utc' }).toISODate() as string;

const timeArb = fc.oneof(
  fc.integer({ min: 0, max: 95 }).map((q) => q * 15),
  fc.integer({ min: 0, max: 1439 }),
  fc.constantFrom(0, 60, 120, 150, 180, 1410),
);

/** Times around the small hours, where DST changes happen. */
const smallHoursArb = fc.integer({ min: 0, max: 8 }).map((h) => h * 30);

const hoursArbWith = (t: fc.Arbitrary<number>) => fc.record({
  dayOfWeek: fc.integer({ min: 1, max: 7 }),
  start: t,
  end: fc.oneof(t, fc.constant(1440)),
  active: fc.constantFrom(true, true, true, true, false),
  effFrom: fc.option(fc.integer({ min: 0, max: PERIOD_DAYS }), { freq: 4 }),
  effLen: fc.option(fc.integer({ min: 0, max: 120 }), { freq: 2 }),
}).map((h) => ({
  dayOfWeek: h.dayOfWeek,
  startTime: hm(h.start),
  endTime: h.end === 1440 ? '24:00' : hm(h.end),
  active: h.active,
  effectiveFrom: h.effFrom === null ? null : dateIn(h.effFrom),
  effectiveUntil: h.effFrom === null || h.effLen === null ? null : dateIn(h.effFrom + h.effLen),
}));

/** Holidays anywhere in the period, on 29 February, or in the days after `focusDay`. */
const holidayArbNear = (focusDay: number) => fc.record({
  day: fc.oneof(
    fc.integer({ min: 0, max: PERIOD_DAYS }),
    fc.constant(59), // 2024-02-29
    fc.integer({ min: Math.max(0, focusDay - 2), max: Math.min(PERIOD_DAYS, focusDay + 14) }),
  ),
  closed: fc.boolean(),
  from: fc.integer({ min: 0, max: 95 }).map((q) => q * 15),
  len: fc.integer({ min: 15, max: 1440 }),
  recurring: fc.boolean(),
}).map((h) => ({
  date: dateIn(h.day),
  name: 'h',
  closed: h.closed,
  openFrom: h.closed ? null : hm(h.from),
  openUntil: h.closed ? null : h.from + h.len >= 1440 ? '24:00' : hm(h.from + h.len),
  recurring: h.recurring,
}));

const locationArb = (i: number, zones = ZONES, hoursArb = hoursArbWith(timeArb), focusDay = 0) =>
  fc.record({
    timezone: fc.constantFrom(...zones),
    enabled: fc.constantFrom(true, true, true, true, true, false),
    hours: fc.array(hoursArb, { minLength: 0, maxLength: 6 }),
    holidays: fc.array(holidayArbNear(focusDay), { minLength: 0, maxLength: 6 }),
  }).map((l) => ({ locationCode: `L${i}`, ...l }));

const calendarArbNear = (focusDay: number): fc.Arbitrary<CalendarSnapshot> =>
  fc
    .integer({ min: 1, max: 3 })
    .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => locationArb(i, ZONES, hoursArbWith(timeArb), focusDay))))
    .map((locations) => ({ calendarCode: 'P', active: true, businessDayMinutes: 480, locations }));
const calendarArb = fc.integer({ min: 0, max: PERIOD_DAYS }).chain(calendarArbNear);

/** Calendars in DST zones whose windows start and end in the small hours, every day of the week. */
const DST_ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'America/Santiago'];
const dstCalendarArb: fc.Arbitrary<CalendarSnapshot> = fc
  .integer({ min: 1, max: 2 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => locationArb(i, DST_ZONES, hoursArbWith(smallHoursArb)))))
  .map((locations) => ({ calendarCode: 'D', active: true, locations }));

/** DST changes of the zones above inside the period (UTC dates), to aim instants near them. */
const DST_DAYS = ['2024-03-10', '2024-03-31', '2024-04-06', '2024-09-07', '2024-09-29', '2024-10-06', '2024-10-27', '2024-11-03', '2025-03-09', '2025-03-30', '2025-04-05'];

const receivedArb = fc.record({
  minute: fc.oneof(
    fc.integer({ min: 0, max: (PERIOD_DAYS - 40) * 1440 }),
    fc
      .tuple(fc.constantFrom(...DST_DAYS), fc.integer({ min: -3 * 1440, max: 1440 }))
      .map(([d, off]) => (Date.parse(`${d}T00:00:00Z`) - PERIOD_START) / MIN + off),
  ),
  seconds: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 59 })),
});

const HORIZON_DAYS = 40;

describe('SLA engine agrees with a minute-stepping reference (property)', () => {
  const checkAgainstReference = (cal: CalendarSnapshot, received: number, budget: number) => {
    const ref = refSla(cal, received, budget, HORIZON_DAYS);
    let got: { due: number; used: string[] } | 'unreachable';
    try {
      const r = calculateSla(
        cal,
        { receivedDateTime: new Date(received).toISOString(), receivedTimezone: 'UTC', sla: { businessMinutes: budget } },
        { horizonDays: HORIZON_DAYS },
      );
      expect(r.totalBusinessMinutesConsumed).toBe(budget);
      got = { due: Date.parse(r.dueDateTimeUtc), used: r.locationsUsed };
    } catch (e) {
      if (e instanceof CalendarEngineError && e.kind === 'unreachable') got = 'unreachable';
      else throw e;
    }
    if (ref === 'unreachable' || got === 'unreachable') {
      expect(got).toEqual(ref);
    } else {
      expect(new Date(got.due).toISOString()).toBe(new Date(ref.due).toISOString());
      expect(got.used).toEqual(ref.used);
    }
  };

  it('due date and locationsUsed match the reference for random calendars, instants and budgets', () => {
    fc.assert(
      fc.property(
        receivedArb.chain((rec) =>
          fc.tuple(
            fc.constant(rec),
            calendarArbNear(Math.floor(rec.minute / 1440)), // holidays often just after the received day
            fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 120 }), fc.integer({ min: 121, max: 2500 })),
          ),
        ),
        ([rec, cal, budget]) => checkAgainstReference(cal, PERIOD_START + rec.minute * MIN + rec.seconds * 1000, budget),
      ),
      { numRuns: 300 },
    );
  }, 120_000);

  it('due date and locationsUsed match the reference around DST changes (windows in the small hours)', () => {
    fc.assert(
      fc.property(
        dstCalendarArb,
        fc.constantFrom(...DST_DAYS),
        fc.integer({ min: -2 * 1440, max: 1440 }),
        fc.integer({ min: 0, max: 600 }),
        (cal, day, offsetMinutes, budget) =>
          checkAgainstReference(cal, Date.parse(`${day}T00:00:00Z`) + offsetMinutes * MIN, budget),
      ),
      { numRuns: 400 },
    );
  }, 120_000);

  it('isOpen (openLocations, nextChangeAt) matches stepping minute by minute', () => {
    fc.assert(
      fc.property(calendarArb, fc.integer({ min: 0, max: (PERIOD_DAYS - 20) * 1440 }), (cal, minute) => {
        const at = PERIOD_START + minute * MIN;
        const horizon = 10;
        const minutes = new RefMinutes(cal, at, at + horizon * DAY);
        const now = minutes.openAt(at);
        let change: number | null = null;
        for (let m = at + MIN; m < at + horizon * DAY; m += MIN) {
          if (minutes.openAt(m).join() !== now.join()) {
            change = m;
            break;
          }
        }
        const r = isCalendarOpen(cal, new Date(at).toISOString(), { horizonDays: horizon });
        expect(r.openLocations).toEqual(now);
        expect(r.open).toBe(now.length > 0);
        expect(r.nextChangeAt).toBe(change === null ? null : new Date(change).toISOString());
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('availability windows cover exactly the reference open minutes with their open sets', () => {
    fc.assert(
      fc.property(calendarArb, fc.integer({ min: 0, max: (PERIOD_DAYS - 10) * 1440 }), (cal, minute) => {
        const from = PERIOD_START + minute * MIN;
        const to = from + 4 * DAY;
        const minutes = new RefMinutes(cal, from, to);
        const windows = computeAvailability(cal, { from: new Date(from).toISOString(), to: new Date(to).toISOString() });
        let w = 0;
        for (let m = from; m < to; m += MIN) {
          const open = minutes.openAt(m);
          while (w < windows.length && Date.parse((windows[w] as { end: string }).end) <= m) w++;
          const cur = windows[w];
          const inWindow = cur !== undefined && Date.parse(cur.start) <= m;
          expect(inWindow ? cur.activeLocations : []).toEqual(open);
        }
        for (let i = 1; i < windows.length; i++) {
          const a = windows[i - 1] as (typeof windows)[number];
          const b = windows[i] as (typeof windows)[number];
          expect(Date.parse(a.end)).toBeLessThanOrEqual(Date.parse(b.start));
          if (a.end === b.start) expect(a.activeLocations).not.toEqual(b.activeLocations);
        }
      }),
      { numRuns: 100 },
    );
  }, 120_000);
});
