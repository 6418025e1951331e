import { describe, expect, it } from 'vitest';
import {
  DEFAULT_IS_OPEN_HORIZON_DAYS,
  MAX_AVAILABILITY_SPAN_DAYS,
  computeAvailability,
  isCalendarOpen,
} from '../../../domain/calendar/index.js';
import { EVERY_DAY, WEEKDAYS, calendar, closedOn, hours, location, officeUtc } from './fixtures.js';
import { engineError } from './sla-helpers.js';

const lonNy = () =>
  calendar([
    location('LON', 'Europe/London', hours(WEEKDAYS, '09:00', '17:00')),
    location('NY', 'America/New_York', hours(WEEKDAYS, '09:00', '17:00')),
  ]);

describe('availability', () => {
  it('splits the union where the set of open locations changes', () => {
    expect(computeAvailability(lonNy(), { from: '2024-01-08T00:00:00Z', to: '2024-01-09T00:00:00Z' })).toEqual([
      { start: '2024-01-08T09:00:00.000Z', end: '2024-01-08T14:00:00.000Z', durationMinutes: 300, activeLocations: ['LON'] },
      { start: '2024-01-08T14:00:00.000Z', end: '2024-01-08T17:00:00.000Z', durationMinutes: 180, activeLocations: ['LON', 'NY'] },
      { start: '2024-01-08T17:00:00.000Z', end: '2024-01-08T22:00:00.000Z', durationMinutes: 300, activeLocations: ['NY'] },
    ]);
  });

  it('activeLocations follow the snapshot order of locations', () => {
    const swapped = calendar([...lonNy().locations].reverse());
    const windows = computeAvailability(swapped, { from: '2024-01-08T14:00:00Z', to: '2024-01-08T15:00:00Z' });
    expect(windows.map((w) => w.activeLocations)).toEqual([['NY', 'LON']]);
  });

  it('windows with the same open set that touch across midnight are one window', () => {
    const cal = calendar([location('X', 'UTC', hours(EVERY_DAY, '00:00', '24:00'))]);
    expect(computeAvailability(cal, { from: '2024-01-08T00:00:00Z', to: '2024-01-10T00:00:00Z' })).toEqual([
      { start: '2024-01-08T00:00:00.000Z', end: '2024-01-10T00:00:00.000Z', durationMinutes: 2880, activeLocations: ['X'] },
    ]);
  });

  it('windows are clipped to from..to', () => {
    expect(computeAvailability(officeUtc(), { from: '2024-01-08T10:00:00Z', to: '2024-01-08T12:30:00Z' })).toEqual([
      { start: '2024-01-08T10:00:00.000Z', end: '2024-01-08T12:30:00.000Z', durationMinutes: 150, activeLocations: ['HQ'] },
    ]);
  });

  it('a holiday at one location removes it from the windows of that date', () => {
    const cal = calendar([
      location('LON', 'Europe/London', hours(WEEKDAYS, '09:00', '17:00'), [closedOn('2024-01-08')]),
      location('NY', 'America/New_York', hours(WEEKDAYS, '09:00', '17:00')),
    ]);
    expect(computeAvailability(cal, { from: '2024-01-08T00:00:00Z', to: '2024-01-09T00:00:00Z' })).toEqual([
      { start: '2024-01-08T14:00:00.000Z', end: '2024-01-08T22:00:00.000Z', durationMinutes: 480, activeLocations: ['NY'] },
    ]);
  });

  it('from/to without an offset are read in the given time zone', () => {
    const windows = computeAvailability(officeUtc(), { from: '2024-01-08', to: '2024-01-09', timezone: 'Asia/Tokyo' });
    // Tokyo 2024-01-08 00:00..2024-01-09 00:00 = 2024-01-07T15:00Z..2024-01-08T15:00Z
    expect(windows).toEqual([
      { start: '2024-01-08T09:00:00.000Z', end: '2024-01-08T15:00:00.000Z', durationMinutes: 360, activeLocations: ['HQ'] },
    ]);
  });

  it(`a span over MAX_AVAILABILITY_SPAN_DAYS (${MAX_AVAILABILITY_SPAN_DAYS}) is refused with kind span-too-large`, () => {
    expect(engineError(() => computeAvailability(officeUtc(), { from: '2024-01-01T00:00:00Z', to: '2025-01-01T00:00:01Z' })).kind).toBe(
      'span-too-large',
    );
    // exactly the maximum is fine: 2024 is a leap year of 366 days
    const all = computeAvailability(officeUtc(), { from: '2024-01-01T00:00:00Z', to: '2025-01-01T00:00:00Z' });
    expect(all.length).toBe(262); // weekdays in 2024
  });

  it('to before from is invalid input; an empty range has no windows', () => {
    expect(engineError(() => computeAvailability(officeUtc(), { from: '2024-01-09T00:00:00Z', to: '2024-01-08T00:00:00Z' })).kind).toBe(
      'invalid-input',
    );
    expect(computeAvailability(officeUtc(), { from: '2024-01-08T10:00:00Z', to: '2024-01-08T10:00:00Z' })).toEqual([]);
  });

  it('an inactive calendar has no windows', () => {
    expect(
      computeAvailability({ ...officeUtc(), active: false }, { from: '2024-01-08T00:00:00Z', to: '2024-01-09T00:00:00Z' }),
    ).toEqual([]);
  });
});

describe('is-open', () => {
  it('open: the open locations now and the next instant the set changes', () => {
    expect(isCalendarOpen(lonNy(), '2024-01-08T15:00:00Z')).toEqual({
      open: true,
      openLocations: ['LON', 'NY'],
      nextChangeAt: '2024-01-08T17:00:00.000Z',
    });
  });

  it('closed on a weekend: nextChangeAt is the next opening', () => {
    expect(isCalendarOpen(lonNy(), '2024-01-06T12:00:00Z')).toEqual({
      open: false,
      openLocations: [],
      nextChangeAt: '2024-01-08T09:00:00.000Z',
    });
  });

  it("exactly at a window's end the location is closed", () => {
    expect(isCalendarOpen(officeUtc(), '2024-01-08T17:00:00Z')).toEqual({
      open: false,
      openLocations: [],
      nextChangeAt: '2024-01-09T09:00:00.000Z',
    });
  });

  it('nextChangeAt skips a holiday (Friday 17:00 → Tuesday 09:00 when Monday is closed)', () => {
    expect(isCalendarOpen(officeUtc([closedOn('2024-01-08')]), '2024-01-05T16:00:00Z').nextChangeAt).toBe(
      '2024-01-05T17:00:00.000Z',
    );
    expect(isCalendarOpen(officeUtc([closedOn('2024-01-08')]), '2024-01-05T17:00:00Z').nextChangeAt).toBe(
      '2024-01-09T09:00:00.000Z',
    );
  });

  it('nextChangeAt is null when the set never changes within the horizon (open around the clock)', () => {
    const cal = calendar([location('X', 'UTC', hours(EVERY_DAY, '00:00', '24:00'))]);
    expect(isCalendarOpen(cal, '2024-01-08T12:00:00Z', { horizonDays: 60 })).toEqual({
      open: true,
      openLocations: ['X'],
      nextChangeAt: null,
    });
  });

  it('nextChangeAt is null when nothing opens within the horizon', () => {
    const future = calendar([location('X', 'UTC', hours(WEEKDAYS, '09:00', '17:00', { effectiveFrom: '2030-01-01' }))]);
    expect(isCalendarOpen(future, '2024-01-08T12:00:00Z', { horizonDays: 30 }).nextChangeAt).toBeNull();
    expect(isCalendarOpen(future, '2029-12-30T12:00:00Z', { horizonDays: 30 }).nextChangeAt).toBe('2030-01-01T09:00:00.000Z');
  });

  it(`by default nextChangeAt looks DEFAULT_IS_OPEN_HORIZON_DAYS (${DEFAULT_IS_OPEN_HORIZON_DAYS}) days ahead`, () => {
    const later = calendar([location('X', 'UTC', hours(WEEKDAYS, '09:00', '17:00', { effectiveFrom: '2025-06-01' }))]);
    expect(isCalendarOpen(later, '2024-05-01T12:00:00Z').nextChangeAt).toBeNull(); // 397 days away
    expect(isCalendarOpen(later, '2024-12-01T12:00:00Z').nextChangeAt).toBe('2025-06-02T09:00:00.000Z');
  });

  it('a seamless hand-over between locations is a change of the open set', () => {
    const cal = calendar([
      location('A', 'UTC', hours([1], '09:00', '12:00')),
      location('B', 'UTC', hours([1], '12:00', '15:00')),
    ]);
    expect(isCalendarOpen(cal, '2024-01-08T10:00:00Z')).toEqual({
      open: true,
      openLocations: ['A'],
      nextChangeAt: '2024-01-08T12:00:00.000Z',
    });
  });

  it('an inactive calendar is closed with no next change', () => {
    expect(isCalendarOpen({ ...officeUtc(), active: false }, '2024-01-08T10:00:00Z')).toEqual({
      open: false,
      openLocations: [],
      nextChangeAt: null,
    });
  });
});
