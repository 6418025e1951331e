import { describe, expect, it } from 'vitest';
import {
  CalendarEngineError,
  businessCalendarInputSchema,
  businessHoursInputSchema,
  calendarLocationInputSchema,
  calendarSnapshotSchema,
  dayOfWeekSchema,
  endTimeSchema,
  holidayInputSchema,
  localDateSchema,
  parseCalendarInput,
  slaCalculateRequestSchema,
  startTimeSchema,
  timeZoneSchema,
} from '../../../domain/calendar/index.js';

const ok = (schema: { safeParse: (v: unknown) => { success: boolean } }, v: unknown) => schema.safeParse(v).success;

describe('field validation', () => {
  it('time zones must be IANA names', () => {
    expect(ok(timeZoneSchema, 'Europe/Berlin')).toBe(true);
    expect(ok(timeZoneSchema, 'UTC')).toBe(true);
    expect(ok(timeZoneSchema, 'Mars/Olympus')).toBe(false);
    expect(ok(timeZoneSchema, '')).toBe(false);
    expect(ok(timeZoneSchema, '+02:00')).toBe(false);
  });

  it('times are HH:mm; 24:00 only as an end', () => {
    expect(ok(startTimeSchema, '09:00')).toBe(true);
    expect(ok(startTimeSchema, '23:59')).toBe(true);
    expect(ok(startTimeSchema, '24:00')).toBe(false);
    expect(ok(endTimeSchema, '24:00')).toBe(true);
    for (const bad of ['9:00', '09:60', '24:01', '25:00', '09:00:00', 'noon']) {
      expect(ok(startTimeSchema, bad)).toBe(false);
      expect(ok(endTimeSchema, bad)).toBe(false);
    }
  });

  it('dates are real YYYY-MM-DD dates (29 February only in leap years)', () => {
    expect(ok(localDateSchema, '2024-02-29')).toBe(true);
    expect(ok(localDateSchema, '2023-02-29')).toBe(false);
    expect(ok(localDateSchema, '2024-13-01')).toBe(false);
    expect(ok(localDateSchema, '2024-1-01')).toBe(false);
    expect(ok(localDateSchema, '2024-01-01T00:00')).toBe(false);
  });

  it('dayOfWeek is an integer 1..7', () => {
    expect([1, 7].map((d) => ok(dayOfWeekSchema, d))).toEqual([true, true]);
    expect([0, 8, 1.5, '1'].map((d) => ok(dayOfWeekSchema, d))).toEqual([false, false, false, false]);
  });
});

describe('entity inputs', () => {
  it('business hours: defaults, and effectiveUntil before effectiveFrom is rejected', () => {
    const parsed = businessHoursInputSchema.parse({ dayOfWeek: 1, startTime: '22:00', endTime: '06:00' });
    expect(parsed).toMatchObject({ active: true, partial: false });
    expect(
      ok(businessHoursInputSchema, { dayOfWeek: 1, startTime: '09:00', endTime: '17:00', effectiveFrom: '2024-02-01', effectiveUntil: '2024-01-31' }),
    ).toBe(false);
    expect(ok(businessHoursInputSchema, { dayOfWeek: 1, startTime: '09:00', endTime: '17:00', capacityPercent: 101 })).toBe(false);
  });

  it('holidays: closed by default; a narrowed day needs openFrom before openUntil', () => {
    expect(holidayInputSchema.parse({ date: '2024-12-24', name: 'Eve' })).toMatchObject({ closed: true, recurring: false });
    const noTimes = holidayInputSchema.safeParse({ date: '2024-12-24', name: 'Eve', closed: false });
    expect(noTimes.success).toBe(false);
    expect(noTimes.error?.issues.map((i) => i.path.join('.'))).toEqual(['openFrom', 'openUntil']);
    expect(ok(holidayInputSchema, { date: '2024-12-24', name: 'Eve', closed: false, openFrom: '14:00', openUntil: '12:00' })).toBe(false);
    expect(ok(holidayInputSchema, { date: '2024-12-24', name: 'Eve', closed: false, openFrom: '00:00', openUntil: '24:00' })).toBe(true);
  });

  it('codes: letters, digits and _ - . only', () => {
    expect(ok(businessCalendarInputSchema, { calendarCode: 'EU-support_1', name: 'EU' })).toBe(true);
    expect(ok(businessCalendarInputSchema, { calendarCode: 'bad code', name: 'EU' })).toBe(false);
    expect(ok(businessCalendarInputSchema, { calendarCode: '', name: 'EU' })).toBe(false);
  });

  it('locations: IANA zone and two-letter country', () => {
    expect(ok(calendarLocationInputSchema, { locationCode: 'BER', name: 'Berlin', timezone: 'Europe/Berlin', country: 'DE' })).toBe(true);
    expect(ok(calendarLocationInputSchema, { locationCode: 'BER', name: 'Berlin', timezone: 'Berlin' })).toBe(false);
    expect(ok(calendarLocationInputSchema, { locationCode: 'BER', name: 'Berlin', timezone: 'UTC', country: 'DEU' })).toBe(false);
  });

  it('SLA request: local or offset date-time, IANA zone, non-negative integer budget', () => {
    const base = { calendarCode: 'EU', receivedDateTime: '2024-01-08T09:00', receivedTimezone: 'Europe/Berlin', sla: { businessDays: 1, businessMinutes: 0 } };
    expect(ok(slaCalculateRequestSchema, base)).toBe(true);
    expect(ok(slaCalculateRequestSchema, { ...base, receivedDateTime: '2024-01-08T09:00:00+01:00' })).toBe(true);
    expect(ok(slaCalculateRequestSchema, { ...base, receivedDateTime: '08/01/2024 09:00' })).toBe(false);
    expect(ok(slaCalculateRequestSchema, { ...base, receivedTimezone: 'CEST' })).toBe(false);
    expect(ok(slaCalculateRequestSchema, { ...base, sla: { businessDays: -1, businessMinutes: 0 } })).toBe(false);
    expect(ok(slaCalculateRequestSchema, { ...base, sla: { businessDays: 0, businessMinutes: 0.5 } })).toBe(false);
  });

  it('snapshot: rejects a bad zone deep inside with its path', () => {
    const r = calendarSnapshotSchema.safeParse({
      calendarCode: 'C',
      active: true,
      locations: [{ locationCode: 'A', timezone: 'Nowhere', hours: [], holidays: [] }],
    });
    expect(r.error?.issues[0]?.path).toEqual(['locations', 0, 'timezone']);
  });
});

describe('parseCalendarInput', () => {
  it('returns the parsed value, or throws invalid-input carrying every field path', () => {
    expect(parseCalendarInput(dayOfWeekSchema, 3)).toBe(3);
    try {
      parseCalendarInput(businessHoursInputSchema, { dayOfWeek: 9, startTime: '24:00', endTime: '17:00' });
      expect.unreachable('should have thrown');
    } catch (e) {
      expect(e).toBeInstanceOf(CalendarEngineError);
      const err = e as CalendarEngineError;
      expect(err.kind).toBe('invalid-input');
      expect(err.status).toBe(400);
      expect(err.issues.map((i) => i.path.join('.')).sort()).toEqual(['dayOfWeek', 'startTime']);
    }
  });
});
