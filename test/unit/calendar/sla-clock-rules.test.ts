// The calendar's own rules hold for SLA clocks (issue 25 §1): on the calendars of the engine's
// SLA tests (sla.test.ts, sla-dst-holidays.test.ts), a new clock is due where calculateSla puts
// its budget, each warning falls where calculateSla puts that share of it, and advancing the clock
// to its due date records them there, then the breach.
import { describe, expect, it } from 'vitest';
import { calculateSla, compileCalendar, type CalendarSnapshot } from '../../../domain/calendar/index.js';
import { clockMilestones } from '../../../domain/calendar/sla-clock.js';
import { advanceClock, startClock, type ClockCalendar } from '../../../domain/calendar/sla-clock-steps.js';
import { EVERY_DAY, WEEKDAYS, calendar, closedOn, hours, location, narrowedOn, officeUtc } from './fixtures.js';

const MIN = 60_000;
const WARN_AT = [25, 50, 75];

const lonNy = (lonHolidays: ReturnType<typeof closedOn>[] = [], nyEnabled = true) =>
  calendar([
    location('LON', 'Europe/London', hours(WEEKDAYS, '09:00', '17:00'), lonHolidays),
    location('NY', 'America/New_York', hours(WEEKDAYS, '09:00', '17:00'), [], { enabled: nyEnabled }),
  ]);
const nightShift = (holidays: ReturnType<typeof closedOn>[] = [], day = 5) => calendar([location('N', 'UTC', hours([day], '22:00', '06:00'), holidays)]);
const allYear = (holidays: ReturnType<typeof closedOn>[]) => calendar([location('HQ', 'UTC', hours(EVERY_DAY, '09:00', '17:00'), holidays)]);

/** [rule, calendar, received instant, business days, business minutes]; every budget splits into whole-minute quarters. */
const RULES: Array<[string, CalendarSnapshot, string, number, number]> = [
  [
    'effective-dated hours change mid-budget',
    calendar([
      location('HQ', 'UTC', [
        ...hours(WEEKDAYS, '09:00', '17:00', { effectiveUntil: '2024-01-10' }),
        ...hours(WEEKDAYS, '10:00', '12:00', { effectiveFrom: '2024-01-11' }),
      ]),
    ]),
    '2024-01-10T16:00:00Z',
    0,
    180,
  ],
  ['inactive hours are ignored', calendar([location('HQ', 'UTC', [...hours(WEEKDAYS, '09:00', '17:00'), ...hours(WEEKDAYS, '17:00', '20:00', { active: false })])]), '2024-01-08T16:00:00Z', 0, 120],
  ['overlapping windows of one location count once', calendar([location('HQ', 'UTC', [...hours([1], '09:00', '13:00'), ...hours([1], '11:00', '17:00')])]), '2024-01-08T09:00:00Z', 0, 480],
  ['locations combine as a union (London ∪ New York)', lonNy(), '2024-01-08T09:00:00Z', 0, 780],
  ['a holiday at one location leaves the other open', lonNy([closedOn('2024-01-09')]), '2024-01-09T09:00:00Z', 0, 60],
  ['disabled locations are ignored', lonNy([], false), '2024-01-08T16:00:00Z', 0, 120],
  ['a window across midnight belongs to its start day', nightShift(), '2024-01-05T21:00:00Z', 0, 480],
  ['a closed holiday on the next date removes the after-midnight part', nightShift([closedOn('2024-01-09')], 1), '2024-01-08T22:00:00Z', 0, 180],
  ['a narrowed holiday keeps only openFrom..openUntil', officeUtc([narrowedOn('2024-01-10', '12:00', '14:00')]), '2024-01-10T08:00:00Z', 0, 152],
  ['two holidays on one date intersect', officeUtc([narrowedOn('2024-01-10', '09:00', '12:00'), narrowedOn('2024-01-10', '11:00', '17:00')]), '2024-01-10T08:00:00Z', 0, 120],
  ['a holiday is a local date in the location zone (Asia/Tokyo)', calendar([location('TYO', 'Asia/Tokyo', hours(WEEKDAYS, '09:00', '17:00'), [closedOn('2024-01-10')])]), '2024-01-09T07:00:00Z', 0, 120],
  ['recurring holidays repeat across a year boundary', allYear([closedOn('2020-12-31', { recurring: true }), closedOn('2020-01-01', { recurring: true })]), '2024-12-30T16:00:00Z', 0, 120],
  ['a recurring 29 February applies in leap years', allYear([closedOn('2024-02-29', { recurring: true })]), '2028-02-28T16:00:00Z', 0, 120],
  ['received on a closed holiday starts on the next business day', officeUtc([closedOn('2024-01-08')]), '2024-01-08T10:00:00Z', 0, 32],
  ["received exactly at a window's end starts at the next window", officeUtc(), '2024-01-08T17:00:00Z', 0, 4],
  ['a received time with seconds starts at the next whole minute', officeUtc(), '2024-01-08T09:00:30Z', 0, 4],
  ['budget days count the calendar\'s businessDayMinutes (600)', calendar([location('HQ', 'UTC', hours(WEEKDAYS, '08:00', '18:00'))], { businessDayMinutes: 600 }), '2024-01-08T08:00:00Z', 2, 32],
  ['a budget crossing 29 February counts it', officeUtc(), '2024-02-28T09:00:00Z', 3, 0],
  ['DST spring-forward inside a window (New York)', calendar([location('NY', 'America/New_York', hours([7], '00:00', '06:00'))]), '2024-03-10T05:00:00Z', 0, 300],
  ['DST fall-back inside a window: the repeated hour counts (Berlin)', calendar([location('BER', 'Europe/Berlin', hours([7], '00:00', '06:00'))]), '2024-10-26T22:00:00Z', 0, 420],
];

const dueOf = (snapshot: CalendarSnapshot, received: string, days: number, minutes: number) =>
  calculateSla(snapshot, { receivedDateTime: received, receivedTimezone: 'UTC', sla: { businessDays: days, businessMinutes: minutes } }).dueDateTimeUtc;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe("the calendar's own rules hold for SLA clocks", () => {
  it.each(RULES)('%s: due date, warnings and breach where calculateSla puts each share of the budget', (_rule, snapshot, received, days, minutes) => {
    const cal: ClockCalendar = { calendar: compileCalendar(snapshot), calendarId: 'cal-1', rulesVersion: 1 };
    const receivedAt = Date.parse(received);
    const clock = startClock({ budget: { days, minutes }, warnAt: WARN_AT, receivedAt }, cal, receivedAt).clock;
    const due = dueOf(snapshot, received, days, minutes);
    expect(iso(clock.dueAt)).toBe(due);

    const totalMinutes = days * (snapshot.businessDayMinutes ?? 480) + minutes;
    const shares = WARN_AT.map((p) => [p, dueOf(snapshot, received, 0, (totalMinutes * p) / 100)] as const);
    const milestones = clockMilestones(cal.calendar, clock.runs, totalMinutes * MIN, [...WARN_AT, 100]);
    expect(milestones.map((m) => [m.percent, iso(m.at)])).toEqual([...shares, [100, due]]);

    const reached = advanceClock(clock, cal, Date.parse(due), Date.parse(due));
    expect(reached.events.map((e) => [e.kind, iso(e.at)])).toEqual([...shares.map(([, at]) => ['warning', at]), ['breached', due]]);
    expect(reached.clock).toMatchObject({ state: 'BREACHED', breachedAt: Date.parse(due) });
  });
});
