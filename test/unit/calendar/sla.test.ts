import { describe, expect, it } from 'vitest';
import { calculateSla, compileCalendar } from '../../../domain/calendar/index.js';
import { WEEKDAYS, calendar, closedOn, hours, location, officeUtc } from './fixtures.js';
import { due, engineError, sla } from './sla-helpers.js';

describe('which hours apply', () => {
  it('effective-dated hours change mid-budget (09-17 until 10 Jan, then 10-12)', () => {
    const cal = calendar([
      location('HQ', 'UTC', [
        ...hours(WEEKDAYS, '09:00', '17:00', { effectiveUntil: '2024-01-10' }),
        ...hours(WEEKDAYS, '10:00', '12:00', { effectiveFrom: '2024-01-11' }),
      ]),
    ]);
    // Wed 16:00-17:00 = 60, Thu 10:00-12:00 = 120
    expect(due(sla(cal, '2024-01-10T16:00:00Z', 180))).toBe('2024-01-11T12:00:00.000Z');
    // Thu 10-12, Fri 10-12: 240 minutes from Thu 00:00 end Fri 12:00
    expect(due(sla(cal, '2024-01-11T00:00:00Z', 240))).toBe('2024-01-12T12:00:00.000Z');
  });

  it('inactive hours are ignored', () => {
    const cal = calendar([
      location('HQ', 'UTC', [...hours(WEEKDAYS, '09:00', '17:00'), ...hours(WEEKDAYS, '17:00', '20:00', { active: false })]),
    ]);
    expect(due(sla(cal, '2024-01-08T16:00:00Z', 120))).toBe('2024-01-09T10:00:00.000Z');
  });

  it('partial, capacityPercent and partialReason do not change the minutes counted', () => {
    const row = {
      id: 'h1',
      locationId: 'l1',
      dayOfWeek: 1,
      startTime: '09:00',
      endTime: '17:00',
      label: 'Monday',
      partial: true,
      capacityPercent: 25,
      partialReason: 'skeleton crew',
      active: true,
      effectiveFrom: null,
      effectiveUntil: null,
    };
    const cal = calendar([location('HQ', 'UTC', [row])]);
    expect(due(sla(cal, '2024-01-08T09:00:00Z', 480))).toBe('2024-01-08T17:00:00.000Z');
  });

  it('overlapping windows of one location count once', () => {
    const cal = calendar([location('HQ', 'UTC', [...hours([1], '09:00', '13:00'), ...hours([1], '11:00', '17:00')])]);
    expect(due(sla(cal, '2024-01-08T09:00:00Z', 480))).toBe('2024-01-08T17:00:00.000Z');
  });
});

describe('multi-location union', () => {
  const lonNy = (lonHolidays = [] as ReturnType<typeof closedOn>[], nyEnabled = true) =>
    calendar([
      location('LON', 'Europe/London', hours(WEEKDAYS, '09:00', '17:00'), lonHolidays),
      location('NY', 'America/New_York', hours(WEEKDAYS, '09:00', '17:00'), [], { enabled: nyEnabled }),
    ]);

  it('overlapping minutes count once (London 09-17Z ∪ New York 14-22Z = 13 hours)', () => {
    const r = sla(lonNy(), '2024-01-08T09:00:00Z', 780);
    expect(due(r)).toBe('2024-01-08T22:00:00.000Z');
    expect(r.locationsUsed).toEqual(['LON', 'NY']);
  });

  it('locationsUsed lists only locations open during a consumed minute', () => {
    expect(sla(lonNy(), '2024-01-08T09:00:00Z', 300).locationsUsed).toEqual(['LON']); // due 14:00Z, NY opens then
    expect(sla(lonNy(), '2024-01-08T09:00:00Z', 301).locationsUsed).toEqual(['LON', 'NY']);
    expect(sla(lonNy(), '2024-01-08T18:00:00Z', 60).locationsUsed).toEqual(['NY']);
  });

  it('a holiday at one location leaves the other open', () => {
    const r = sla(lonNy([closedOn('2024-01-09')]), '2024-01-09T09:00:00Z', 60);
    expect(due(r)).toBe('2024-01-09T15:00:00.000Z');
    expect(r.locationsUsed).toEqual(['NY']);
  });

  it('disabled locations are ignored', () => {
    const r = sla(lonNy([], false), '2024-01-08T16:00:00Z', 120);
    expect(due(r)).toBe('2024-01-09T10:00:00.000Z');
    expect(r.locationsUsed).toEqual(['LON']);
  });
});

describe('where consumption starts and ends', () => {
  it('received outside hours (Saturday) starts at the next opening', () => {
    expect(due(sla(officeUtc(), '2024-01-06T12:00:00Z', 30))).toBe('2024-01-08T09:30:00.000Z');
  });

  it('received on a closed holiday starts on the next business day', () => {
    expect(due(sla(officeUtc([closedOn('2024-01-08')]), '2024-01-08T10:00:00Z', 30))).toBe('2024-01-09T09:30:00.000Z');
  });

  it("received exactly at a window's end starts at the next window", () => {
    expect(due(sla(officeUtc(), '2024-01-08T17:00:00Z', 1))).toBe('2024-01-09T09:01:00.000Z');
  });

  it("the due date may equal a window's end", () => {
    expect(due(sla(officeUtc(), '2024-01-08T16:00:00Z', 60))).toBe('2024-01-08T17:00:00.000Z');
  });

  it('a received time with seconds starts at the next whole minute', () => {
    const r = sla(officeUtc(), '2024-01-08T09:00:30Z', 1);
    expect(r.receivedDateTimeUtc).toBe('2024-01-08T09:00:30.000Z');
    expect(due(r)).toBe('2024-01-08T09:02:00.000Z');
  });

  it('zero budget gives the received instant when open', () => {
    const r = sla(officeUtc(), '2024-01-08T10:00:30Z', 0);
    expect(due(r)).toBe('2024-01-08T10:00:30.000Z');
    expect(r.locationsUsed).toEqual([]);
    expect(r.totalBusinessMinutesConsumed).toBe(0);
  });

  it('zero budget gives the next opening when closed (also exactly at a window end)', () => {
    expect(due(sla(officeUtc(), '2024-01-08T17:00:00Z', 0))).toBe('2024-01-09T09:00:00.000Z');
    expect(due(sla(officeUtc(), '2024-01-06T12:00:00Z', 0))).toBe('2024-01-08T09:00:00.000Z');
  });
});

describe('budget', () => {
  it('budget = businessDays × 480 (default) + businessMinutes; totalBusinessMinutesConsumed equals it', () => {
    const r = sla(officeUtc(), '2024-01-08T09:00:00Z', 30, 'UTC', 2);
    expect(r.totalBusinessMinutesConsumed).toBe(990);
    expect(due(r)).toBe('2024-01-10T09:30:00.000Z');
  });

  it('the business-day length is a calendar setting (businessDayMinutes 600)', () => {
    const cal = calendar([location('HQ', 'UTC', hours(WEEKDAYS, '08:00', '18:00'))], { businessDayMinutes: 600 });
    const r = sla(cal, '2024-01-08T08:00:00Z', 30, 'UTC', 2);
    expect(r.totalBusinessMinutesConsumed).toBe(1230);
    expect(due(r)).toBe('2024-01-10T08:30:00.000Z');
  });

  it('30 business days on a weekday office land six weeks later', () => {
    expect(due(sla(officeUtc(), '2024-01-08T09:00:00Z', 0, 'UTC', 30))).toBe('2024-02-16T17:00:00.000Z');
  });

  it('negative or fractional budgets are invalid input', () => {
    expect(engineError(() => sla(officeUtc(), '2024-01-08T09:00:00Z', -1)).kind).toBe('invalid-input');
    expect(engineError(() => sla(officeUtc(), '2024-01-08T09:00:00Z', 1.5)).kind).toBe('invalid-input');
    const e = engineError(() => sla(officeUtc(), '2024-01-08T09:00:00Z', 0, 'UTC', -2));
    expect(e.issues[0]?.path).toEqual(['sla', 'businessDays']);
  });
});

describe('compiled calendars', () => {
  it('a calendar compiled once gives the same answers as its snapshot', () => {
    const snapshot = officeUtc([closedOn('2024-01-10')]);
    const compiled = compileCalendar(snapshot);
    for (const [at, minutes] of [['2024-01-09T16:00:00Z', 120], ['2024-01-06T12:00:00Z', 0], ['2024-01-08T09:00:00Z', 2000]] as const) {
      expect(sla(compiled, at, minutes)).toEqual(sla(snapshot, at, minutes));
    }
  });
});

describe('errors', () => {
  it('an inactive calendar is refused with kind inactive-calendar (HTTP 409)', () => {
    const e = engineError(() => sla({ ...officeUtc(), active: false }, '2024-01-08T09:00:00Z', 10));
    expect(e.kind).toBe('inactive-calendar');
    expect(e.status).toBe(409);
  });

  it('a calendar without hours cannot reach any budget: kind unreachable (HTTP 422)', () => {
    const e = engineError(() => sla(calendar([location('HQ', 'UTC', [])]), '2024-01-08T09:00:00Z', 10));
    expect(e.kind).toBe('unreachable');
    expect(e.status).toBe(422);
    expect(engineError(() => sla(calendar([]), '2024-01-08T09:00:00Z', 0)).kind).toBe('unreachable');
  });

  it('hours that ended before the received time are unreachable', () => {
    const cal = calendar([location('HQ', 'UTC', hours(WEEKDAYS, '09:00', '17:00', { effectiveUntil: '2023-12-31' }))]);
    expect(engineError(() => sla(cal, '2024-01-08T09:00:00Z', 10)).kind).toBe('unreachable');
  });

  it('the horizon is a parameter: 10 business days do not fit in a 5-day horizon', () => {
    expect(engineError(() => sla(officeUtc(), '2024-01-08T09:00:00Z', 0, 'UTC', 10, 5)).kind).toBe('unreachable');
    expect(due(sla(officeUtc(), '2024-01-08T09:00:00Z', 0, 'UTC', 10, 30))).toBe('2024-01-19T17:00:00.000Z');
  });

  it('a bad received time or time zone is invalid input', () => {
    expect(engineError(() => sla(officeUtc(), 'yesterday', 10)).kind).toBe('invalid-input');
    expect(engineError(() => sla(officeUtc(), '2024-01-08T09:00', 10, 'Mars/Olympus')).kind).toBe('invalid-input');
    // a local time without a zone cannot be placed
    const noZone = () => calculateSla(officeUtc(), { receivedDateTime: '2024-01-08T09:00', sla: { businessMinutes: 10 } });
    expect(engineError(noZone).kind).toBe('invalid-input');
  });

  it('a snapshot with a bad zone, time or dayOfWeek is invalid input with a field path', () => {
    const badZone = calendar([location('HQ', 'Nowhere/Town', hours(WEEKDAYS, '09:00', '17:00'))]);
    expect(engineError(() => compileCalendar(badZone)).issues[0]?.path).toEqual(['locations', 0, 'timezone']);
    const badTime = calendar([location('HQ', 'UTC', hours([1], '9:00', '17:00'))]);
    expect(engineError(() => compileCalendar(badTime)).issues[0]?.path).toEqual(['locations', 0, 'hours', 0, 'startTime']);
    const badDay = calendar([location('HQ', 'UTC', hours([8], '09:00', '17:00'))]);
    expect(engineError(() => compileCalendar(badDay)).issues[0]?.path).toEqual(['locations', 0, 'hours', 0, 'dayOfWeek']);
  });
});
