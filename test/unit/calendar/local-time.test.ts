import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  civilFromDays,
  daysFromCivil,
  formatDateKey,
  formatInZone,
  isoDayOfWeek,
  parseInstant,
  tryParseDateKey,
  wallToInstant,
  zoneOffset,
} from '../../../domain/calendar/local-time.js';

const wall = (iso: string) => Date.parse(`${iso}Z`);
const utc = (t: number) => new Date(t).toISOString();

describe('civil dates', () => {
  it('epoch days round-trip through civil dates, leap days included', () => {
    for (let d = daysFromCivil(1999, 12, 25); d < daysFromCivil(2030, 1, 10); d += 17) {
      const c = civilFromDays(d);
      expect(daysFromCivil(c.year, c.month, c.day)).toBe(d);
    }
    expect(formatDateKey(daysFromCivil(2024, 2, 29))).toBe('2024-02-29');
    expect(daysFromCivil(2024, 3, 1) - daysFromCivil(2024, 2, 28)).toBe(2);
    expect(daysFromCivil(2100, 3, 1) - daysFromCivil(2100, 2, 28)).toBe(1); // 2100 is not leap
  });

  it('ISO weekday: 1970-01-01 was a Thursday (4), 2024-01-08 a Monday (1), 2024-01-07 a Sunday (7)', () => {
    expect(isoDayOfWeek(0)).toBe(4);
    expect(isoDayOfWeek(daysFromCivil(2024, 1, 8))).toBe(1);
    expect(isoDayOfWeek(daysFromCivil(2024, 1, 7))).toBe(7);
    expect(isoDayOfWeek(daysFromCivil(1969, 12, 31))).toBe(3);
  });

  it('only real dates parse', () => {
    expect(tryParseDateKey('2023-02-29')).toBeUndefined();
    expect(tryParseDateKey('2024-04-31')).toBeUndefined();
    expect(tryParseDateKey('2024-04-30')).toBe(daysFromCivil(2024, 4, 30));
  });
});

describe('zone offsets', () => {
  it('agree with luxon every 6 hours across 2024-2025 in zones with unusual rules', () => {
    for (const zone of ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/Santiago', 'Africa/Casablanca']) {
      for (let t = Date.UTC(2024, 0, 1); t < Date.UTC(2026, 0, 1); t += 6 * 3_600_000 + 7 * 60_000) {
        expect(zoneOffset(zone, t), `${zone} ${utc(t)}`).toBe(DateTime.fromMillis(t, { zone }).offset * 60_000);
      }
    }
  });

  it('change at the exact transition minute (New York 2024-03-10 07:00Z)', () => {
    expect(zoneOffset('America/New_York', Date.parse('2024-03-10T06:59:00Z'))).toBe(-5 * 3_600_000);
    expect(zoneOffset('America/New_York', Date.parse('2024-03-10T07:00:00Z'))).toBe(-4 * 3_600_000);
  });
});

describe('wall clock to instant', () => {
  it('a nonexistent local time moves forward by the gap (New York, Berlin, Lord Howe 30-minute gap)', () => {
    expect(utc(wallToInstant('America/New_York', wall('2024-03-10T02:30:00')))).toBe('2024-03-10T07:30:00.000Z');
    expect(utc(wallToInstant('Europe/Berlin', wall('2024-03-31T02:15:00')))).toBe('2024-03-31T01:15:00.000Z');
    // Lord Howe jumps 02:00 → 02:30 (+10:30 → +11); 02:15 becomes 02:45 +11 = 15:45Z the day before
    expect(utc(wallToInstant('Australia/Lord_Howe', wall('2024-10-06T02:15:00')))).toBe('2024-10-05T15:45:00.000Z');
  });

  it('an ambiguous local time takes the earlier offset', () => {
    expect(utc(wallToInstant('America/New_York', wall('2024-11-03T01:30:00')))).toBe('2024-11-03T05:30:00.000Z');
    expect(utc(wallToInstant('Europe/Berlin', wall('2024-10-27T02:30:00')))).toBe('2024-10-27T00:30:00.000Z');
  });

  it('ordinary local times round-trip', () => {
    expect(utc(wallToInstant('Asia/Kolkata', wall('2024-06-01T09:00:00')))).toBe('2024-06-01T03:30:00.000Z');
    expect(utc(wallToInstant('America/New_York', wall('2024-11-03T03:00:00')))).toBe('2024-11-03T08:00:00.000Z');
  });
});

describe('instant parsing and formatting', () => {
  it('accepts Z, ±HH:mm and ±HHmm offsets, and local times read in a zone', () => {
    expect(parseInstant('2024-01-08T09:00:00Z', undefined).instant).toBe(Date.parse('2024-01-08T09:00:00Z'));
    expect(parseInstant('2024-01-08T10:00:00+01:00', undefined).instant).toBe(Date.parse('2024-01-08T09:00:00Z'));
    expect(parseInstant('2024-01-08T04:00-0500', undefined).instant).toBe(Date.parse('2024-01-08T09:00:00Z'));
    expect(parseInstant('2024-01-08T09:00:00.250', 'UTC').instant).toBe(Date.parse('2024-01-08T09:00:00.250Z'));
    expect(parseInstant('2024-01-08', 'Asia/Tokyo').instant).toBe(Date.parse('2024-01-07T15:00:00Z'));
  });

  it('rejects impossible dates and times', () => {
    expect(() => parseInstant('2024-02-30T10:00:00Z', undefined)).toThrow(/ISO-8601/);
    expect(() => parseInstant('2024-01-08T25:00:00Z', undefined)).toThrow(/ISO-8601/);
    expect(() => parseInstant('2024-01-08T09:00', undefined)).toThrow(/time zone/);
  });

  it('formats a local date-time with the zone offset of that instant', () => {
    expect(formatInZone(Date.parse('2024-07-01T10:00:00Z'), 'America/New_York')).toBe('2024-07-01T06:00:00.000-04:00');
    expect(formatInZone(Date.parse('2024-01-01T10:00:00Z'), 'Asia/Kathmandu')).toBe('2024-01-01T15:45:00.000+05:45');
  });
});
