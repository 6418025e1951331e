/**
 * The open-time index (chunks of the union with running sums) against the union it caches: one
 * Timeline.segments call over the whole range, consumed segment by segment (the engine's walk
 * before the index). Chunk sizes and caps vary, so chunk edges, many-chunk budgets and eviction
 * are all exercised; DST changes and holidays are placed on chunk edges on purpose.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CalendarSnapshot,
  type CompiledCalendar,
  OpenTimeIndex,
  type SnapshotHoliday,
  type SnapshotHours,
  calculateSla,
  compileCalendar,
  configureOpenTimeIndex,
  openTimeIndexFootprint,
  openTimeIndexOf,
} from '../../../domain/calendar/index.js';
import { Timeline } from '../../../domain/calendar/open-intervals.js';
import type { Segment } from '../../../domain/calendar/intervals.js';
import { EVERY_DAY, WEEKDAYS, calendar, closedOn, hours, location, narrowedOn } from './fixtures.js';

const MIN = 60_000;
const DAY = 86_400_000;

// ---------------------------------------------------------------------------------------------
// Oracle: the union in one piece

interface Consumed {
  due: number;
  used: number[];
}

function oracleConsume(cal: CompiledCalendar, start: number, limit: number, budgetMs: number): Consumed | undefined {
  let remaining = budgetMs;
  const used = new Set<number>();
  for (const s of new Timeline(cal).segments(start, limit)) {
    for (const li of s.locs) used.add(li);
    const len = s.end - s.start;
    if (len >= remaining) return { due: s.start + remaining, used: [...used].sort((a, b) => a - b) };
    remaining -= len;
  }
  return undefined;
}

const oracleFirstOpen = (cal: CompiledCalendar, t: number, limit: number) => new Timeline(cal).segments(t, limit)[0]?.start;

function indexConsume(index: OpenTimeIndex, start: number, limit: number, budgetMs: number): Consumed | undefined {
  const used = new Uint8Array(index.calendar.locations.length);
  const due = index.consume(start, limit, budgetMs, used);
  return due === undefined ? undefined : { due, used: [...used].flatMap((u, i) => (u ? [i] : [])) };
}

/** The chunks' segments over [from, to), clipped, with pieces that touch at an edge with the same set joined. */
function chunkedSegments(index: OpenTimeIndex, from: number, to: number): Segment[] {
  const out: Segment[] = [];
  for (let t = from; t < to; ) {
    const c = index.chunkAt(t);
    for (let i = 0; i < c.n; i++) {
      const start = Math.max(c.starts[i] as number, from);
      const end = Math.min(c.ends[i] as number, to);
      if (end <= start) continue;
      const locs = c.locationsOpenIn(i);
      const last = out[out.length - 1];
      if (last && last.end === start && last.locs.join() === locs.join()) last.end = end;
      else out.push({ start, end, locs });
    }
    t = c.to;
  }
  return out;
}

const compiledWith = (snapshot: CalendarSnapshot, chunkDays: number, maxChunks = 1000) =>
  configureOpenTimeIndex(compileCalendar(snapshot), { chunkDays, maxChunks });

const slaOn = (cal: CompiledCalendar, receivedDateTime: string, businessMinutes: number, businessDays = 0) =>
  calculateSla(cal, { receivedDateTime, receivedTimezone: 'UTC', sla: { businessDays, businessMinutes } });

// ---------------------------------------------------------------------------------------------
// Calendars

const threeZones = calendar([
  location('NYC', 'America/New_York', hours(WEEKDAYS, '09:00', '17:00'), [closedOn('2024-07-04')]),
  location('BER', 'Europe/Berlin', [...hours(WEEKDAYS, '08:00', '12:00'), ...hours(WEEKDAYS, '13:00', '17:00')], [
    closedOn('2024-10-03'),
    closedOn('2020-12-24', { recurring: true }),
  ]),
  location('SYD', 'Australia/Sydney', [...hours(WEEKDAYS, '09:00', '17:30'), ...hours([6], '09:00', '12:00')]),
]);

/** Europe/Chisinau changes offset at 00:00 UTC (02:00 → 03:00 in March, 03:00 → 02:00 in October): on a chunk edge. */
const chisinauSmallHours = calendar([location('MD', 'Europe/Chisinau', hours([7], '00:00', '06:00'))]);

const overnightUtc = calendar([location('N', 'UTC', hours(EVERY_DAY, '20:00', '04:00'))]);

describe('open-time index: chunks', () => {
  const cases: [string, CalendarSnapshot][] = [
    ['three zones', threeZones],
    ['DST on the edges', chisinauSmallHours],
    ['overnight windows', overnightUtc],
  ];
  for (const [name, snapshot] of cases) {
    it(`${name}: chunks of 1, 2 and 8 days tile the union of one Timeline call`, () => {
      const from = Date.UTC(2024, 2, 1);
      const to = Date.UTC(2024, 10, 15);
      const compiledOnce = compileCalendar(snapshot);
      const whole = new Timeline(compiledOnce).segments(from, to);
      expect(whole.length).toBeGreaterThan(10);
      for (const chunkDays of [1, 2, 8]) {
        const index = new OpenTimeIndex(compiledOnce, { chunkDays });
        expect(chunkedSegments(index, from, to)).toEqual(whole);
        const c = index.chunkAt(from + 3 * DAY);
        expect(c.to - c.from).toBe(chunkDays * DAY);
        expect(c.from % (chunkDays * DAY)).toBe(0);
        for (let i = 0; i < c.n; i++) {
          expect(c.starts[i]).toBeGreaterThanOrEqual(c.from);
          expect(c.ends[i]).toBeLessThanOrEqual(c.to);
          expect((c.cum[i + 1] as number) - (c.cum[i] as number)).toBe((c.ends[i] as number) - (c.starts[i] as number));
        }
      }
    });
  }

  it('a window that crosses a chunk edge is cut there and consumed across it', () => {
    for (const chunkDays of [1, 2, 8]) {
      const cal = compiledWith(overnightUtc, chunkDays);
      // 20:00 → 00:00 is 240 minutes, the 60 more come from the next chunk (1-day chunks).
      expect(slaOn(cal, '2024-01-08T20:00:00Z', 300).dueDateTimeUtc).toBe('2024-01-09T01:00:00.000Z');
      // A budget ending exactly on the edge.
      expect(slaOn(cal, '2024-01-08T20:00:00Z', 240).dueDateTimeUtc).toBe('2024-01-09T00:00:00.000Z');
      // A zero budget inside the window, just after the edge.
      expect(slaOn(cal, '2024-01-09T00:00:30Z', 0).dueDateTimeUtc).toBe('2024-01-09T00:00:30.000Z');
    }
  });

  it('a budget spanning many chunks: 30 business days over 1-day chunks', () => {
    const office = calendar([location('HQ', 'UTC', hours(WEEKDAYS, '09:00', '17:00'))]);
    const cal = compiledWith(office, 1);
    const r = slaOn(cal, '2024-01-08T09:00:00Z', 0, 30);
    expect(r.dueDateTimeUtc).toBe('2024-02-16T17:00:00.000Z');
    expect(r.locationsUsed).toEqual(['HQ']);
    expect(openTimeIndexFootprint(cal).builds).toBeGreaterThanOrEqual(40);
    expect(slaOn(compileCalendar(office), '2024-01-08T09:00:00Z', 0, 30)).toEqual(r);
  });

  it('locationsUsed comes from the consumed segments only, across chunk edges', () => {
    for (const chunkDays of [1, 8]) {
      const cal = compiledWith(threeZones, chunkDays);
      // Monday 2024-01-08 06:00 UTC: only Berlin is open for the first hours.
      expect(slaOn(cal, '2024-01-08T07:00:00Z', 60).locationsUsed).toEqual(['BER']);
      // Far enough to reach New York's afternoon and Sydney's Tuesday morning (22:00 UTC).
      expect(slaOn(cal, '2024-01-08T07:00:00Z', 1000).locationsUsed).toEqual(['NYC', 'BER', 'SYD']);
    }
  });
});

describe('open-time index: DST changes and holidays on chunk edges', () => {
  it('Europe/Chisinau: the spring-forward window is 300 real minutes, the fall-back one 420, whatever the chunks', () => {
    for (const chunkDays of [1, 2, 8]) {
      const cal = compiledWith(chisinauSmallHours, chunkDays);
      expect(slaOn(cal, '2024-03-30T22:00:00Z', 300).dueDateTimeUtc).toBe('2024-03-31T03:00:00.000Z');
      expect(slaOn(cal, '2024-03-30T22:00:00Z', 301).dueDateTimeUtc).toBe('2024-04-06T21:01:00.000Z');
      expect(slaOn(cal, '2024-10-26T21:00:00Z', 420).dueDateTimeUtc).toBe('2024-10-27T04:00:00.000Z');
      // The minutes on either side of the edge (the transition) count once each.
      expect(slaOn(cal, '2024-03-30T23:59:00Z', 2).dueDateTimeUtc).toBe('2024-03-31T00:01:00.000Z');
      expect(slaOn(cal, '2024-10-26T23:59:00Z', 2).dueDateTimeUtc).toBe('2024-10-27T00:01:00.000Z');
    }
  });

  it('Europe/Chisinau: a window starting in the spring-forward gap starts at the gap end (the chunk edge + 30 min)', () => {
    const gap = calendar([location('MD', 'Europe/Chisinau', hours([7], '02:30', '05:00'))]);
    for (const chunkDays of [1, 8]) {
      const cal = compiledWith(gap, chunkDays);
      // 02:30 does not exist; it is 03:30 EEST = 00:30 UTC. Until 05:00 EEST = 02:00 UTC: 90 minutes.
      expect(slaOn(cal, '2024-03-30T12:00:00Z', 0).dueDateTimeUtc).toBe('2024-03-31T00:30:00.000Z');
      expect(slaOn(cal, '2024-03-30T12:00:00Z', 90).dueDateTimeUtc).toBe('2024-03-31T02:00:00.000Z');
    }
  });

  it('a holiday whose date starts on a chunk edge (UTC, 2024-01-06 is epoch day 19728 = 8 × 2466)', () => {
    const open24 = (holidays: SnapshotHoliday[]) => calendar([location('U', 'UTC', hours(EVERY_DAY, '00:00', '24:00'), holidays)]);
    expect(Date.UTC(2024, 0, 6) % (8 * DAY)).toBe(0);
    for (const chunkDays of [1, 2, 4, 8]) {
      const closed = compiledWith(open24([closedOn('2024-01-06')]), chunkDays);
      expect(slaOn(closed, '2024-01-05T23:00:00Z', 120).dueDateTimeUtc).toBe('2024-01-07T01:00:00.000Z');
      expect(slaOn(closed, '2024-01-06T00:00:00Z', 0).dueDateTimeUtc).toBe('2024-01-07T00:00:00.000Z');
      const narrowed = compiledWith(open24([narrowedOn('2024-01-06', '10:00', '12:00')]), chunkDays);
      expect(slaOn(narrowed, '2024-01-05T23:00:00Z', 180).dueDateTimeUtc).toBe('2024-01-06T12:00:00.000Z');
      const recurring = compiledWith(open24([closedOn('2020-01-06', { recurring: true })]), chunkDays);
      expect(slaOn(recurring, '2024-01-05T23:00:00Z', 120).dueDateTimeUtc).toBe('2024-01-07T01:00:00.000Z');
    }
  });

  it('a holiday whose local date straddles a chunk edge (Asia/Tokyo: the date runs 15:00 to 15:00 UTC)', () => {
    const tokyo = calendar([location('TYO', 'Asia/Tokyo', hours(EVERY_DAY, '00:00', '24:00'), [closedOn('2024-01-06')])]);
    for (const chunkDays of [1, 8]) {
      const cal = compiledWith(tokyo, chunkDays);
      // Closed from 2024-01-05T15:00Z to 2024-01-06T15:00Z, across the edge at 2024-01-06T00:00Z.
      expect(slaOn(cal, '2024-01-05T14:00:00Z', 120).dueDateTimeUtc).toBe('2024-01-06T16:00:00.000Z');
    }
  });
});

describe('open-time index: memory bound and memo', () => {
  const queries = Array.from({ length: 60 }, (_, i) => ({
    at: new Date(Date.UTC(2024, 0, 1) + ((i * 37) % 300) * DAY + ((i * 7919) % 1440) * MIN).toISOString(),
    minutes: [1, 30, 480, 2400, 9600][i % 5] as number,
  }));

  it('eviction under a cap of chunks gives the same answers, and keeps the cap', () => {
    const free = compileCalendar(threeZones);
    const capped = configureOpenTimeIndex(compileCalendar(threeZones), { chunkDays: 2, maxChunks: 3 });
    for (const q of queries) expect(slaOn(capped, q.at, q.minutes)).toEqual(slaOn(free, q.at, q.minutes));
    const f = openTimeIndexFootprint(capped);
    expect(f.chunks).toBeLessThanOrEqual(3);
    expect(f.evictions).toBeGreaterThan(0);
    expect(f.builds).toBe(f.chunks + f.evictions);
  });

  it('eviction under a cap of bytes gives the same answers, and keeps the cap (one chunk at least)', () => {
    const free = compileCalendar(threeZones);
    const capped = configureOpenTimeIndex(compileCalendar(threeZones), { chunkDays: 1, maxBytes: 2_000 });
    for (const q of queries) expect(slaOn(capped, q.at, q.minutes)).toEqual(slaOn(free, q.at, q.minutes));
    const f = openTimeIndexFootprint(capped);
    expect(f.chunks).toBeGreaterThanOrEqual(1);
    expect(f.bytes <= 2_000 || f.chunks === 1).toBe(true);
    expect(f.evictions).toBeGreaterThan(0);
  });

  it('the footprint reports what is held; the index is memoised on the compiled calendar', () => {
    const cal = compileCalendar(threeZones);
    expect(openTimeIndexFootprint(cal)).toMatchObject({ chunks: 0, segments: 0, bytes: 0, builds: 0 });
    expect(openTimeIndexOf(cal)).toBe(openTimeIndexOf(cal));
    slaOn(cal, '2024-01-08T07:00:00Z', 4800);
    const after = openTimeIndexFootprint(cal);
    expect(after.chunks).toBeGreaterThan(0);
    expect(after.segments).toBeGreaterThan(after.chunks);
    expect(after.bytes).toBeGreaterThan(after.segments * 24);
    slaOn(cal, '2024-01-08T07:00:00Z', 4800);
    expect(openTimeIndexFootprint(cal).builds).toBe(after.builds); // warm: nothing rebuilt
  });

  it('chunk sizes are powers of two', () => {
    expect(() => new OpenTimeIndex(compileCalendar(threeZones), { chunkDays: 3 })).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Property: random calendars, chunk sizes and caps, several queries per calendar (so chunks are
// reused and evicted between them).

const ZONES = ['UTC', 'America/New_York', 'Europe/Chisinau', 'Australia/Lord_Howe', 'America/Santiago', 'Asia/Kolkata', 'Asia/Tokyo'];
const PERIOD_START = Date.UTC(2024, 0, 1);
const PERIOD_DAYS = 420;
const hm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const dateIn = (d: number) => new Date(PERIOD_START + d * DAY).toISOString().slice(0, 10);

const minuteOfDayArb = fc.oneof(fc.integer({ min: 0, max: 95 }).map((q) => q * 15), fc.integer({ min: 0, max: 1439 }));
const hoursArb: fc.Arbitrary<SnapshotHours> = fc
  .record({ dayOfWeek: fc.integer({ min: 1, max: 7 }), start: minuteOfDayArb, end: fc.oneof(minuteOfDayArb, fc.constant(1440)) })
  .map((h) => ({ dayOfWeek: h.dayOfWeek, startTime: hm(h.start), endTime: h.end === 1440 ? '24:00' : hm(h.end), active: true }));
const holidayArb: fc.Arbitrary<SnapshotHoliday> = fc
  .record({ day: fc.integer({ min: 0, max: PERIOD_DAYS }), closed: fc.boolean(), from: minuteOfDayArb, recurring: fc.boolean() })
  .map((h) => ({
    date: dateIn(h.day),
    closed: h.closed,
    openFrom: h.closed ? null : hm(h.from),
    openUntil: h.closed ? null : hm(Math.min(1439, h.from + 120)),
    recurring: h.recurring,
  }));
const calendarArb: fc.Arbitrary<CalendarSnapshot> = fc
  .array(
    fc.record({ timezone: fc.constantFrom(...ZONES), hours: fc.array(hoursArb, { maxLength: 6 }), holidays: fc.array(holidayArb, { maxLength: 8 }) }),
    { minLength: 1, maxLength: 3 },
  )
  .map((locs) => calendar(locs.map((l, i) => location(`L${i}`, l.timezone, l.hours, l.holidays))));
const queryArb = fc.record({
  at: fc.integer({ min: 0, max: (PERIOD_DAYS - 70) * 1440 * 60 }).map((s) => PERIOD_START + s * 1000),
  budget: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 600 }), fc.integer({ min: 601, max: 20_000 })),
  horizonDays: fc.integer({ min: 1, max: 60 }),
  /** Move the start, or the limit, onto an open/close instant of the union (k-th one nearby). */
  snapAt: fc.option(fc.nat()),
  snapLimit: fc.option(fc.nat()),
});

/** The query's start and limit, snapped onto boundaries of the union when asked. */
type Query = typeof queryArb extends fc.Arbitrary<infer Q> ? Q : never;

function placeQuery(compiled: CompiledCalendar, q: Query): { at: number; limit: number } {
  let at = q.at;
  const boundaries = (from: number) => new Timeline(compiled).segments(from, from + 30 * DAY).flatMap((s) => [s.start, s.end]);
  if (q.snapAt !== null) {
    const b = boundaries(at - 5 * DAY);
    if (b.length > 0) at = b[q.snapAt % b.length] as number;
  }
  let limit = at + q.horizonDays * DAY;
  if (q.snapLimit !== null) {
    const b = boundaries(at).filter((x) => x > at);
    if (b.length > 0) limit = b[q.snapLimit % b.length] as number;
  }
  return { at, limit };
}

describe('open-time index agrees with the union walked in one piece (property)', () => {
  it('consume and firstOpen, any chunk size and cap, several queries per index', () => {
    fc.assert(
      fc.property(
        calendarArb,
        fc.constantFrom(1, 2, 4, 8, 16),
        fc.constantFrom(1, 2, 3, 1000),
        fc.array(queryArb, { minLength: 1, maxLength: 6 }),
        (snapshot, chunkDays, maxChunks, queries) => {
          const compiled = compileCalendar(snapshot);
          const index = new OpenTimeIndex(compiled, { chunkDays, maxChunks });
          for (const q of queries) {
            const { at, limit } = placeQuery(compiled, q);
            if (q.budget === 0) {
              expect(index.firstOpen(at, limit)).toBe(oracleFirstOpen(compiled, at, limit));
            } else {
              const start = Math.ceil(at / MIN) * MIN;
              expect(indexConsume(index, start, limit, q.budget * MIN)).toEqual(oracleConsume(compiled, start, limit, q.budget * MIN));
            }
          }
          expect(index.footprint().chunks).toBeLessThanOrEqual(maxChunks);
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);
});
