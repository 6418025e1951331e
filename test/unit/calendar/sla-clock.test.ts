// SLA clock timing and steps on the engine: due dates equal calculateSla's, warnings at their
// business instants, paused time not counted (also over weekends and DST changes), a changed
// calendar recomputed, and every state rule.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../domain/errors.js';
import { calculateSla, compileCalendar, type CalendarSnapshot } from '../../../domain/calendar/index.js';
import { clockElapsedMs, clockMilestones, openTimeBetween } from '../../../domain/calendar/sla-clock.js';
import {
  advanceClock,
  cancelClock,
  pauseClock,
  resumeClock,
  startClock,
  stopClock,
  type ClockCalendar,
  type SlaClockFacts,
} from '../../../domain/calendar/sla-clock-steps.js';
import { EVERY_DAY, WEEKDAYS, calendar, closedOn, hours, location, officeUtc } from './fixtures.js';

const t = (iso: string) => Date.parse(iso);
const at = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const MIN = 60_000;
const cal = (snapshot: CalendarSnapshot, rulesVersion = 1, calendarId = 'cal-1'): ClockCalendar => ({
  calendar: compileCalendar(snapshot),
  calendarId,
  rulesVersion,
});
const start = (c: ClockCalendar, receivedAt: string, minutes: number, warnAt = [50, 75], days = 0) =>
  startClock({ budget: { days, minutes }, warnAt, receivedAt: t(receivedAt) }, c, t(receivedAt)).clock;
const berlinOffice = () => calendar([location('BER', 'Europe/Berlin', hours(WEEKDAYS, '09:00', '17:00'))]);

function conflictOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an AppError');
}

describe('SLA clock timing', () => {
  it('open time between two instants is the union of the open windows inside them', () => {
    const c = compileCalendar(officeUtc());
    expect(openTimeBetween(c, t('2025-04-07T09:00:00Z'), t('2025-04-08T12:00:00Z'))).toBe(11 * 60 * MIN);
    expect(openTimeBetween(c, t('2025-04-05T00:00:00Z'), t('2025-04-07T00:00:00Z'))).toBe(0); // a weekend
    expect(openTimeBetween(c, t('2025-04-08T12:00:00Z'), t('2025-04-07T09:00:00Z'))).toBe(0);
    expect(openTimeBetween(compileCalendar({ ...officeUtc(), active: false }), t('2025-04-07T09:00:00Z'), t('2025-04-08T12:00:00Z'))).toBe(0);
  });

  it('a new clock is due when calculateSla says, in either budget unit, and across the DST change', () => {
    const cases: Array<[CalendarSnapshot, string, string | undefined, number, number]> = [
      [berlinOffice(), '2025-03-28T16:30:00', 'Europe/Berlin', 0, 60],
      [berlinOffice(), '2025-04-04T16:30:00', 'Europe/Berlin', 2, 30],
      [officeUtc(), '2025-04-07T09:00:00Z', undefined, 1, 0],
      [calendar([location('NY', 'America/New_York', hours([7], '00:00', '06:00'))]), '2024-03-10T05:00:00Z', undefined, 0, 300],
    ];
    for (const [snapshot, received, zone, days, minutes] of cases) {
      const expected = calculateSla(snapshot, { receivedDateTime: received, ...(zone ? { receivedTimezone: zone } : {}), sla: { businessDays: days, businessMinutes: minutes } });
      const receivedAt = t(expected.receivedDateTimeUtc);
      const clock = startClock({ budget: { days, minutes }, warnAt: [], receivedAt }, cal(snapshot), receivedAt).clock;
      expect(at(clock.dueAt)).toBe(expected.dueDateTimeUtc);
    }
  });

  it('warnings fall at their share of the budget, in business time (50 % and 75 % of an hour that crosses the night)', () => {
    const c = cal(officeUtc());
    const clock = start(c, '2025-04-07T16:30:00Z', 60);
    const m = clockMilestones(c.calendar, clock.runs, 60 * MIN, [75, 50, 100]);
    expect(m.map((x) => [x.percent, at(x.at)])).toEqual([
      [50, '2025-04-07T17:00:00.000Z'],
      [75, '2025-04-08T09:15:00.000Z'],
      [100, '2025-04-08T09:30:00.000Z'],
    ]);
  });

  it('a received time with seconds starts at the next whole minute, as a due date does', () => {
    const clock = start(cal(officeUtc()), '2025-04-07T10:00:20Z', 10);
    expect(at(clock.runs[0]!.from)).toBe('2025-04-07T10:01:00.000Z');
    expect(at(clock.dueAt)).toBe('2025-04-07T10:11:00.000Z');
  });

  it('an inactive calendar is 409 calendar-inactive-calendar; a calendar without hours 422 calendar-unreachable', () => {
    expect(conflictOf(() => start(cal({ ...officeUtc(), active: false }), '2025-04-07T09:00:00Z', 10)).code).toBe('calendar-inactive-calendar');
    expect(conflictOf(() => start(cal(calendar([location('X', 'UTC', [])])), '2025-04-07T09:00:00Z', 10)).code).toBe('calendar-unreachable');
  });
});

describe('SLA clock steps', () => {
  const office = cal(officeUtc());

  it('advance records each warning at its business instant, then the breach; a breached clock stays so', () => {
    const clock = start(office, '2025-04-07T09:00:00Z', 60);
    const half = advanceClock(clock, office, t('2025-04-07T09:40:00Z'), t('2025-04-07T09:40:00Z'));
    expect(half.events.map((e) => [e.kind, at(e.at)])).toEqual([['warning', '2025-04-07T09:30:00.000Z']]);
    expect(at(half.nextAt)).toBe('2025-04-07T09:45:00.000Z');
    const again = advanceClock(half.clock, office, t('2025-04-07T09:41:00Z'), t('2025-04-07T09:41:00Z'));
    expect(again.events).toEqual([]);
    const late = advanceClock(half.clock, office, t('2025-04-07T12:00:00Z'), t('2025-04-07T12:00:00Z'));
    expect(late.events.map((e) => [e.kind, at(e.at)])).toEqual([
      ['warning', '2025-04-07T09:45:00.000Z'],
      ['breached', '2025-04-07T10:00:00.000Z'],
    ]);
    expect(late.clock).toMatchObject({ state: 'BREACHED', breachedAt: t('2025-04-07T10:00:00Z') });
    expect(late.clock.warnings.map((w) => w.percent)).toEqual([50, 75]);
    expect(late.nextAt).toBeNull();
    expect(advanceClock(late.clock, office, t('2025-04-08T12:00:00Z'), t('2025-04-08T12:00:00Z')).events).toEqual([]);
  });

  it('pause and resume move the due date by the business time paused (over a night: 7 business hours, not 17 real ones)', () => {
    const clock = start(office, '2025-04-07T09:00:00Z', 120);
    expect(at(clock.dueAt)).toBe('2025-04-07T11:00:00.000Z');
    const paused = pauseClock(clock, office, t('2025-04-07T09:30:00Z')).clock;
    expect(paused).toMatchObject({ state: 'PAUSED', dueAt: null });
    expect(clockElapsedMs(office.calendar, paused.runs, t('2025-04-07T16:00:00Z'))).toBe(30 * MIN);
    const resumed = resumeClock(paused, office, t('2025-04-07T16:30:00Z')).clock;
    // 90 minutes left from 16:30: 30 today, 60 tomorrow from 09:00.
    expect(at(resumed.dueAt)).toBe('2025-04-08T10:00:00.000Z');
    expect(clockElapsedMs(office.calendar, resumed.runs, t('2025-04-08T09:00:00Z'))).toBe(60 * MIN);
  });

  it('Europe/Berlin: paused Friday 16:45, resumed Monday 09:00 after the spring-forward weekend', () => {
    const berlin = cal(berlinOffice());
    const clock = start(berlin, '2025-03-28T15:30:00Z', 60); // Friday 16:30 CET
    expect(at(clock.dueAt)).toBe('2025-03-31T07:30:00.000Z'); // Monday 09:30 CEST
    const paused = pauseClock(clock, berlin, t('2025-03-28T15:45:00Z')).clock;
    const resumed = resumeClock(paused, berlin, t('2025-03-31T07:00:00Z')).clock; // Monday 09:00 CEST
    expect(at(resumed.dueAt)).toBe('2025-03-31T07:45:00.000Z');
  });

  it('around the clock in Europe/Berlin, the repeated autumn hour counts and the skipped spring hour does not', () => {
    const allDay = cal(calendar([location('BER', 'Europe/Berlin', hours(EVERY_DAY, '00:00', '24:00'))]));
    const autumn = start(allDay, '2024-10-26T22:00:00Z', 240); // 00:00 CEST on the fall-back night
    expect(at(autumn.dueAt)).toBe('2024-10-27T02:00:00.000Z'); // 03:00 CET: four real hours
    const spring = start(allDay, '2025-03-29T23:30:00Z', 180); // 00:30 CET on the spring-forward night
    expect(at(spring.dueAt)).toBe('2025-03-30T02:30:00.000Z'); // 04:30 CEST
  });

  it('a holiday added while running moves the due date and is recorded as a recompute', () => {
    const clock = start(office, '2025-04-07T16:00:00Z', 120); // 1 h Monday, 1 h Tuesday
    expect(at(clock.dueAt)).toBe('2025-04-08T10:00:00.000Z');
    const changed = cal(officeUtc([closedOn('2025-04-08')]), 2);
    const step = advanceClock(clock, changed, t('2025-04-07T16:30:00Z'), t('2025-04-07T16:30:00Z'));
    expect(at(step.clock.dueAt)).toBe('2025-04-09T10:00:00.000Z');
    expect(step.clock.rulesVersion).toBe(2);
    expect(step.events).toEqual([
      {
        kind: 'recomputed',
        at: t('2025-04-07T16:30:00Z'),
        detail: { previousDueAt: '2025-04-08T10:00:00.000Z', dueAt: '2025-04-09T10:00:00.000Z', rulesVersion: 2, calendarChanged: false },
      },
    ]);
    expect(at(step.nextAt)).toBe('2025-04-07T17:00:00.000Z'); // 50 %: an hour in, still Monday
  });

  it('stop: MET before the due date; after it the breach is recorded and the clock stays BREACHED; then nothing more', () => {
    const met = stopClock(start(office, '2025-04-07T09:00:00Z', 60), office, t('2025-04-07T09:20:00Z'));
    expect(met.clock).toMatchObject({ state: 'MET', stoppedAt: t('2025-04-07T09:20:00Z') });
    expect(met.events.map((e) => e.kind)).toEqual(['met']);
    const late = stopClock(start(office, '2025-04-07T09:00:00Z', 60), office, t('2025-04-07T11:00:00Z'));
    expect(late.clock).toMatchObject({ state: 'BREACHED', breachedAt: t('2025-04-07T10:00:00Z'), stoppedAt: t('2025-04-07T11:00:00Z') });
    expect(late.events.map((e) => e.kind)).toEqual(['warning', 'warning', 'breached', 'stopped']);
    expect(conflictOf(() => stopClock(late.clock, office, t('2025-04-07T12:00:00Z')))).toMatchObject({ code: 'sla-clock-state-conflict', status: 409 });
    expect(conflictOf(() => stopClock(met.clock, office, t('2025-04-07T12:00:00Z'))).extra).toEqual({ state: 'MET' });
  });

  it('state rules: pause only RUNNING, resume only PAUSED, cancel only RUNNING or PAUSED; a paused clock never breaches', () => {
    const clock = start(office, '2025-04-07T09:00:00Z', 60);
    const paused = pauseClock(clock, office, t('2025-04-07T09:10:00Z')).clock;
    expect(conflictOf(() => pauseClock(paused, office, t('2025-04-07T09:20:00Z'))).extra).toEqual({ state: 'PAUSED' });
    expect(conflictOf(() => resumeClock(clock, office, t('2025-04-07T09:20:00Z'))).extra).toEqual({ state: 'RUNNING' });
    expect(advanceClock(paused, office, t('2025-04-09T00:00:00Z'), t('2025-04-09T00:00:00Z')).clock.state).toBe('PAUSED');
    const cancelled = cancelClock(paused, office, t('2025-04-09T00:00:00Z')).clock;
    expect(cancelled).toMatchObject({ state: 'CANCELLED', cancelledAt: t('2025-04-09T00:00:00Z') });
    expect(conflictOf(() => cancelClock(cancelled, office, t('2025-04-09T00:00:00Z'))).extra).toEqual({ state: 'CANCELLED' });
    expect(conflictOf(() => resumeClock(cancelled, office, t('2025-04-09T00:00:00Z'))).code).toBe('sla-clock-state-conflict');
    // A clock breached by the time someone pauses it is breached, not paused.
    const overdue = conflictOf(() => pauseClock(clock, office, t('2025-04-07T11:00:00Z')));
    expect(overdue.extra).toEqual({ state: 'BREACHED' });
  });

  it('a clock paused and resumed before its first whole minute starts at that minute all the same', () => {
    const clock = start(office, '2025-04-07T09:00:20Z', 10);
    const paused = pauseClock(clock, office, t('2025-04-07T09:00:30Z')).clock;
    const resumed = resumeClock(paused, office, t('2025-04-07T09:00:40Z')).clock;
    expect(at(resumed.dueAt)).toBe('2025-04-07T09:11:00.000Z');
  });

  it('a clock started before its calendar changed still counts its past on the calendar as it is now', () => {
    const clock: SlaClockFacts = start(office, '2025-04-07T09:00:00Z', 960); // two business days
    const monday = cal(officeUtc([closedOn('2025-04-07')]), 3);
    const step = advanceClock(clock, monday, t('2025-04-07T12:00:00Z'), t('2025-04-07T12:00:00Z'));
    expect(at(step.clock.dueAt)).toBe('2025-04-09T17:00:00.000Z');
    expect(step.clock.warnings).toEqual([]);
  });
});
