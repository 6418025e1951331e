import { describe, expect, it } from 'vitest';
import {
  calculateSla,
  computeAvailability,
} from '../../../domain/calendar/index.js';
import { EVERY_DAY, WEEKDAYS, calendar, closedOn, hours, location, narrowedOn, officeUtc } from './fixtures.js';
import { due, sla } from './sla-helpers.js';

describe('DST: windows have their real length', () => {
  it('spring-forward inside a window: America/New_York 00:00-06:00 on 2024-03-10 is 300 real minutes', () => {
    const cal = calendar([location('NY', 'America/New_York', hours([7], '00:00', '06:00'))]);
    const r = sla(cal, '2024-03-10T00:00', 300, 'America/New_York');
    expect(due(r)).toBe('2024-03-10T10:00:00.000Z'); // 06:00 EDT
    expect(r.dueDateTimeLocal).toBe('2024-03-10T06:00:00.000-04:00');
    // one more minute only fits next Sunday
    expect(due(sla(cal, '2024-03-10T00:00', 301, 'America/New_York'))).toBe('2024-03-17T04:01:00.000Z');
  });

  it('fall-back inside a window: Europe/Berlin 00:00-06:00 on 2024-10-27 is 420 real minutes (the repeated hour counts)', () => {
    const cal = calendar([location('BER', 'Europe/Berlin', hours([7], '00:00', '06:00'))]);
    expect(due(sla(cal, '2024-10-27T00:00', 420, 'Europe/Berlin'))).toBe('2024-10-27T05:00:00.000Z'); // 06:00 CET
    const [w] = computeAvailability(cal, { from: '2024-10-26T00:00:00Z', to: '2024-10-28T00:00:00Z' });
    expect(w).toEqual({
      start: '2024-10-26T22:00:00.000Z',
      end: '2024-10-27T05:00:00.000Z',
      durationMinutes: 420,
      activeLocations: ['BER'],
    });
  });

  it('spring-forward in Europe/Berlin: 00:00-06:00 on 2024-03-31 is 300 real minutes', () => {
    const cal = calendar([location('BER', 'Europe/Berlin', hours([7], '00:00', '06:00'))]);
    const [w] = computeAvailability(cal, { from: '2024-03-30T00:00:00Z', to: '2024-04-01T00:00:00Z' });
    expect(w?.durationMinutes).toBe(300);
    expect(w?.end).toBe('2024-03-31T04:00:00.000Z'); // 06:00 CEST
  });

  it('a window start inside the spring-forward gap moves forward by the gap (02:30 → 03:30 EDT)', () => {
    const cal = calendar([location('NY', 'America/New_York', hours([7], '02:30', '05:00'))]);
    const [w] = computeAvailability(cal, { from: '2024-03-09T00:00:00Z', to: '2024-03-11T00:00:00Z' });
    expect(w).toMatchObject({ start: '2024-03-10T07:30:00.000Z', end: '2024-03-10T09:00:00.000Z', durationMinutes: 90 });
  });

  it('a window end inside the fall-back overlap takes the earlier offset (01:30 → 01:30 EDT)', () => {
    const cal = calendar([location('NY', 'America/New_York', hours([7], '00:00', '01:30'))]);
    const [w] = computeAvailability(cal, { from: '2024-11-02T00:00:00Z', to: '2024-11-04T00:00:00Z' });
    expect(w).toMatchObject({ start: '2024-11-03T04:00:00.000Z', end: '2024-11-03T05:30:00.000Z', durationMinutes: 90 });
  });
});

describe('DST: received local times', () => {
  const open24 = calendar([location('NY', 'America/New_York', hours(EVERY_DAY, '00:00', '24:00'))]);

  it('a nonexistent received time (New York spring-forward 02:30) moves forward by the gap to 03:30 EDT', () => {
    const r = sla(open24, '2024-03-10T02:30', 30, 'America/New_York');
    expect(r.receivedDateTimeUtc).toBe('2024-03-10T07:30:00.000Z');
    expect(r.dueDateTimeLocal).toBe('2024-03-10T04:00:00.000-04:00');
  });

  it('an ambiguous received time (New York fall-back 01:30) takes the earlier offset (EDT)', () => {
    const r = sla(open24, '2024-11-03T01:30', 60, 'America/New_York');
    expect(r.receivedDateTimeUtc).toBe('2024-11-03T05:30:00.000Z');
    expect(due(r)).toBe('2024-11-03T06:30:00.000Z');
    expect(r.dueDateTimeLocal).toBe('2024-11-03T01:30:00.000-05:00'); // the second 01:30
  });

  it('Europe/Berlin: 02:30 on 2024-03-31 is 03:30 CEST, 02:30 on 2024-10-27 is 02:30 CEST', () => {
    const cal = calendar([location('BER', 'Europe/Berlin', hours(EVERY_DAY, '00:00', '24:00'))]);
    expect(sla(cal, '2024-03-31T02:30', 0, 'Europe/Berlin').receivedDateTimeUtc).toBe('2024-03-31T01:30:00.000Z');
    expect(sla(cal, '2024-10-27T02:30', 0, 'Europe/Berlin').receivedDateTimeUtc).toBe('2024-10-27T00:30:00.000Z');
  });

  it('an instant with an offset is taken as is; dueDateTimeLocal is written in receivedTimezone', () => {
    const r = sla(officeUtc(), '2024-07-01T11:00:00+02:00', 60, 'America/New_York');
    expect(r.receivedDateTimeUtc).toBe('2024-07-01T09:00:00.000Z');
    expect(due(r)).toBe('2024-07-01T10:00:00.000Z');
    expect(r.dueDateTimeLocal).toBe('2024-07-01T06:00:00.000-04:00');
  });

  it('without receivedTimezone, dueDateTimeLocal keeps the offset the instant was written with', () => {
    const r = calculateSla(officeUtc(), { receivedDateTime: '2024-07-01T11:00:00+02:00', sla: { businessMinutes: 60 } });
    expect(r.dueDateTimeLocal).toBe('2024-07-01T12:00:00.000+02:00');
  });
});

describe('windows across midnight', () => {
  const night = calendar([location('N', 'UTC', hours([5], '22:00', '06:00'))]); // Friday night shift

  it('a window whose end is not after its start runs into the next day (Fri 22:00 → Sat 06:00 = 480 minutes)', () => {
    expect(due(sla(night, '2024-01-05T21:00:00Z', 480))).toBe('2024-01-06T06:00:00.000Z');
  });

  it('the after-midnight part belongs to its start day: Saturday 05:00 is open though Saturday has no hours', () => {
    expect(due(sla(night, '2024-01-06T05:00:00Z', 30))).toBe('2024-01-06T05:30:00.000Z');
    expect(due(sla(night, '2024-01-06T07:00:00Z', 1))).toBe('2024-01-12T22:01:00.000Z');
  });

  it('endTime equal to startTime is a 24-hour window', () => {
    const cal = calendar([location('M', 'UTC', hours([1], '09:00', '09:00'))]);
    expect(due(sla(cal, '2024-01-08T09:00:00Z', 1440))).toBe('2024-01-09T09:00:00.000Z');
    expect(due(sla(cal, '2024-01-08T09:00:00Z', 1441))).toBe('2024-01-15T09:01:00.000Z');
  });

  it('24:00 is accepted as an end and means the next midnight', () => {
    const cal = calendar([location('M', 'UTC', hours([1], '20:00', '24:00'))]);
    expect(due(sla(cal, '2024-01-08T20:00:00Z', 240))).toBe('2024-01-09T00:00:00.000Z');
  });
});

describe('holidays', () => {
  it('a closed holiday removes every business minute of its date', () => {
    const r = sla(officeUtc([closedOn('2024-01-10')]), '2024-01-09T16:00:00Z', 120);
    expect(due(r)).toBe('2024-01-11T10:00:00.000Z'); // 60 on Tue, Wed closed, 60 on Thu
  });

  it('a closed holiday on the next date removes the after-midnight part of a cross-midnight window', () => {
    const cal = calendar([location('N', 'UTC', hours([1], '22:00', '06:00'), [closedOn('2024-01-09')])]);
    // Mon 22:00-24:00 counts (120); Tue 00:00-06:00 is on the holiday's date; next Monday 22:00 + 60
    expect(due(sla(cal, '2024-01-08T22:00:00Z', 180))).toBe('2024-01-15T23:00:00.000Z');
  });

  it('a closed holiday on the start date keeps the part of the window that falls on the next date', () => {
    const cal = calendar([location('N', 'UTC', hours([1], '22:00', '06:00'), [closedOn('2024-01-08')])]);
    expect(due(sla(cal, '2024-01-08T20:00:00Z', 60))).toBe('2024-01-09T01:00:00.000Z');
  });

  it('a narrowed holiday intersects the day hours with openFrom..openUntil', () => {
    const cal = officeUtc([narrowedOn('2024-01-10', '12:00', '14:00')]);
    // Wed 09:00-17:00 becomes 12:00-14:00 (120), then Thu 09:00 + 30
    expect(due(sla(cal, '2024-01-10T08:00:00Z', 150))).toBe('2024-01-11T09:30:00.000Z');
    const windows = computeAvailability(cal, { from: '2024-01-10T00:00:00Z', to: '2024-01-11T00:00:00Z' });
    expect(windows).toEqual([
      { start: '2024-01-10T12:00:00.000Z', end: '2024-01-10T14:00:00.000Z', durationMinutes: 120, activeLocations: ['HQ'] },
    ]);
  });

  it('a narrowed holiday that leaves nothing of the hours open closes the day (openFrom after the hours)', () => {
    const cal = officeUtc([narrowedOn('2024-01-10', '18:00', '24:00')]);
    expect(due(sla(cal, '2024-01-10T08:00:00Z', 30))).toBe('2024-01-11T09:30:00.000Z');
  });

  it('two holidays on one date combine as an intersection (closed wins)', () => {
    const cal = officeUtc([narrowedOn('2024-01-10', '09:00', '12:00'), narrowedOn('2024-01-10', '11:00', '17:00')]);
    expect(computeAvailability(cal, { from: '2024-01-10T00:00:00Z', to: '2024-01-11T00:00:00Z' })).toEqual([
      { start: '2024-01-10T11:00:00.000Z', end: '2024-01-10T12:00:00.000Z', durationMinutes: 60, activeLocations: ['HQ'] },
    ]);
    const closedToo = officeUtc([narrowedOn('2024-01-10', '09:00', '12:00'), closedOn('2024-01-10')]);
    expect(computeAvailability(closedToo, { from: '2024-01-10T00:00:00Z', to: '2024-01-11T00:00:00Z' })).toEqual([]);
  });

  it('holidays apply whatever order they are given in', () => {
    const cal = officeUtc([closedOn('2024-01-11'), closedOn('2024-01-09'), closedOn('2024-01-10')]);
    expect(due(sla(cal, '2024-01-08T16:00:00Z', 120))).toBe('2024-01-12T10:00:00.000Z');
  });

  it('a holiday applies to its local date in the location time zone (Asia/Tokyo, not UTC)', () => {
    const cal = calendar([location('TYO', 'Asia/Tokyo', hours(WEEKDAYS, '09:00', '17:00'), [closedOn('2024-01-10')])]);
    // Tue 2024-01-09 16:00 JST = 07:00Z; 60 minutes on Tue, Wed JST closed, Thu 09:00 JST (00:00Z) + 60
    expect(due(sla(cal, '2024-01-09T07:00:00Z', 120))).toBe('2024-01-11T01:00:00.000Z');
  });

  it('recurring holidays repeat every year, across a year boundary (31 Dec and 1 Jan defined in 2020)', () => {
    const cal = calendar([
      location('HQ', 'UTC', hours(EVERY_DAY, '09:00', '17:00'), [
        closedOn('2020-12-31', { recurring: true }),
        closedOn('2020-01-01', { recurring: true }),
      ]),
    ]);
    expect(due(sla(cal, '2024-12-30T16:00:00Z', 120))).toBe('2025-01-02T10:00:00.000Z');
  });

  it('a non-recurring holiday applies only in its own year', () => {
    const cal = calendar([location('HQ', 'UTC', hours(EVERY_DAY, '09:00', '17:00'), [closedOn('2020-12-31')])]);
    expect(due(sla(cal, '2024-12-30T16:00:00Z', 120))).toBe('2024-12-31T10:00:00.000Z');
  });

  it('a recurring 29 February holiday applies in leap years only', () => {
    const cal = calendar([
      location('HQ', 'UTC', hours(EVERY_DAY, '09:00', '17:00'), [closedOn('2024-02-29', { recurring: true })]),
    ]);
    expect(due(sla(cal, '2028-02-28T16:00:00Z', 120))).toBe('2028-03-01T10:00:00.000Z'); // 2028-02-29 closed
    expect(due(sla(cal, '2025-02-28T16:00:00Z', 120))).toBe('2025-03-01T10:00:00.000Z'); // no 29 Feb; 1 Mar open
  });
});

describe('leap day', () => {
  it('29 February is an ordinary business day in a leap year', () => {
    expect(due(sla(officeUtc(), '2024-02-28T16:00:00Z', 120))).toBe('2024-02-29T10:00:00.000Z');
  });

  it('a budget crossing 29 February counts it (Wed 28 Feb 09:00 + 3 business days = Fri 1 Mar 17:00)', () => {
    expect(due(sla(officeUtc(), '2024-02-28T09:00:00Z', 0, 'UTC', 3))).toBe('2024-03-01T17:00:00.000Z');
  });
});
