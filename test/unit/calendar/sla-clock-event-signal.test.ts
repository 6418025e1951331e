// What a workflow waiting on an SLA clock hears: the SlaClockEvent signals a step's recorded events
// owe it (warnings, the breach, met and cancelled, in order; nothing else), how repeats are recognised, which
// events a wait's filter takes, and the activity input the route's schema would have refused.
import { describe, expect, it } from 'vitest';
import {
  matchesSlaClockEvent,
  slaClockEventKey,
  slaClockEventsOf,
  type SlaClockEvent,
} from '../../../domain/calendar/sla-clock-event-signal.js';
import { advanceClock, cancelClock, startClock, stopClock, type ClockCalendar, type ClockEvent } from '../../../domain/calendar/sla-clock-steps.js';
import { compileCalendar } from '../../../domain/calendar/index.js';
import { clockStartIssue } from '../../../services/calendars/sla-clocks.js';
import { EVERY_DAY, calendar, hours, location } from './fixtures.js';

const MIN = 60_000;
const t = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const always = (): ClockCalendar => ({ calendar: compileCalendar(calendar([location('UTC', 'UTC', hours(EVERY_DAY, '00:00', '24:00'))])), calendarId: 'c', rulesVersion: 1 });

describe('slaClockEventsOf', () => {
  it('a step that reaches both warnings and the breach owes three signals, in order, at their business instants', () => {
    const cal = always();
    const receivedAt = t('2025-04-07T09:00:00Z');
    const started = startClock({ budget: { days: 0, minutes: 2 }, warnAt: [50, 75], receivedAt }, cal, receivedAt);
    expect(slaClockEventsOf('k', started.events)).toEqual([]); // `started` is not waited on
    const step = advanceClock(started.clock, cal, receivedAt + 3 * MIN, receivedAt + 3 * MIN);
    expect(slaClockEventsOf('k', step.events)).toEqual([
      { clockId: 'k', kind: 'warning', percent: 50, at: iso(receivedAt + MIN) },
      { clockId: 'k', kind: 'warning', percent: 75, at: iso(receivedAt + 1.5 * MIN) },
      { clockId: 'k', kind: 'breached', percent: 100, at: iso(receivedAt + 2 * MIN) },
    ]);
  });

  it('met and cancelled carry no percent and their instant; paused, resumed, stopped and recomputed owe nothing', () => {
    const cal = always();
    const receivedAt = t('2025-04-07T09:00:00Z');
    const started = startClock({ budget: { days: 0, minutes: 60 }, warnAt: [50], receivedAt }, cal, receivedAt);
    const stopped = stopClock(started.clock, cal, receivedAt + 10 * MIN);
    expect(slaClockEventsOf('k', stopped.events)).toEqual([{ clockId: 'k', kind: 'met', percent: null, at: iso(receivedAt + 10 * MIN) }]);
    const cancelled = cancelClock(started.clock, cal, receivedAt + 20 * MIN);
    expect(slaClockEventsOf('k', cancelled.events)).toEqual([{ clockId: 'k', kind: 'cancelled', percent: null, at: iso(receivedAt + 20 * MIN) }]);
    const quiet: ClockEvent[] = ['started', 'paused', 'resumed', 'stopped', 'recomputed'].map((kind) => ({ kind: kind as ClockEvent['kind'], at: 0, detail: {} }));
    expect(slaClockEventsOf('k', quiet)).toEqual([]);
  });
});

describe('waiting for an SLA clock event', () => {
  const warning = (percent: number): SlaClockEvent => ({ clockId: 'k', kind: 'warning', percent, at: iso(0) });
  const breached: SlaClockEvent = { clockId: 'k', kind: 'breached', percent: 100, at: iso(0) };
  const met: SlaClockEvent = { clockId: 'k', kind: 'met', percent: null, at: iso(0) };
  const cancelled: SlaClockEvent = { clockId: 'k', kind: 'cancelled', percent: null, at: iso(0) };

  it('a repeat of an event has its key; each warning percentage, the breach, met and cancelled have their own', () => {
    const repeat: SlaClockEvent = { ...warning(50), at: iso(5) };
    expect(slaClockEventKey(repeat)).toBe(slaClockEventKey(warning(50)));
    const keys = [warning(50), warning(75), breached, met, cancelled, { ...met, clockId: 'other' }].map(slaClockEventKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('kinds default to all; percent narrows warnings only', () => {
    for (const e of [warning(50), breached, met, cancelled]) expect(matchesSlaClockEvent(e, {})).toBe(true);
    expect(matchesSlaClockEvent(cancelled, { kinds: ['breached', 'met'] })).toBe(false);
    expect(matchesSlaClockEvent(warning(50), { kinds: ['breached', 'met'] })).toBe(false);
    expect(matchesSlaClockEvent(met, { kinds: ['breached', 'met'] })).toBe(true);
    expect(matchesSlaClockEvent(warning(50), { kinds: ['warning'], percent: 75 })).toBe(false);
    expect(matchesSlaClockEvent(warning(75), { kinds: ['warning'], percent: 75 })).toBe(true);
    expect(matchesSlaClockEvent(met, { kinds: ['warning', 'met'], percent: 75 })).toBe(true);
  });
});

describe('clockStartIssue (the activity input the route schema would refuse)', () => {
  const ok = { budget: { days: 0, minutes: 5 } };

  it('accepts what the route accepts', () => {
    expect(clockStartIssue(ok)).toBeNull();
    expect(clockStartIssue({ budget: { days: 2, minutes: 0 }, warnAt: [1, 99], receivedAt: '2025-04-07T09:00:00+02:00' })).toBeNull();
    expect(clockStartIssue({ budget: { days: 3650, minutes: 5_256_000 }, warnAt: [] })).toBeNull();
  });

  it('names the field of a zero, negative or fractional budget, bad warnings and an unreadable receivedAt', () => {
    expect(clockStartIssue({ budget: { days: 0, minutes: 0 } })?.field).toBe('budget');
    expect(clockStartIssue({ budget: { days: -1, minutes: 5 } })?.field).toBe('budget');
    expect(clockStartIssue({ budget: { days: 0, minutes: 1.5 } })?.field).toBe('budget');
    expect(clockStartIssue({ budget: { days: 3651, minutes: 0 } })?.field).toBe('budget');
    expect(clockStartIssue({ budget: { days: 0, minutes: 2 ** 31 } })?.field).toBe('budget');
    for (const warnAt of [[0], [100], [50, 50], [12.5], Array.from({ length: 11 }, (_, i) => i + 1)]) {
      expect(clockStartIssue({ ...ok, warnAt })?.field, JSON.stringify(warnAt)).toBe('warnAt');
    }
    expect(clockStartIssue({ ...ok, receivedAt: 'yesterday' })?.field).toBe('receivedAt');
  });
});
