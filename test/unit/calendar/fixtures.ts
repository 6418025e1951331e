/** Small builders for calendar snapshots in unit tests. */
import type { CalendarSnapshot, SnapshotHoliday, SnapshotHours, SnapshotLocation } from '../../../domain/calendar/index.js';

export const WEEKDAYS = [1, 2, 3, 4, 5];
export const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

export function hours(days: number[], startTime: string, endTime: string, extra: Partial<SnapshotHours> = {}): SnapshotHours[] {
  return days.map((dayOfWeek) => ({ dayOfWeek, startTime, endTime, active: true, ...extra }));
}

export function closedOn(date: string, extra: Partial<SnapshotHoliday> = {}): SnapshotHoliday {
  return { date, name: `holiday ${date}`, closed: true, recurring: false, ...extra };
}

export function narrowedOn(date: string, openFrom: string, openUntil: string, extra: Partial<SnapshotHoliday> = {}): SnapshotHoliday {
  return { date, name: `narrowed ${date}`, closed: false, openFrom, openUntil, recurring: false, ...extra };
}

export function location(
  locationCode: string,
  timezone: string,
  h: SnapshotHours[],
  holidays: SnapshotHoliday[] = [],
  extra: Partial<SnapshotLocation> = {},
): SnapshotLocation {
  return { locationCode, timezone, enabled: true, hours: h, holidays, ...extra };
}

export function calendar(locations: SnapshotLocation[], extra: Partial<CalendarSnapshot> = {}): CalendarSnapshot {
  return { calendarCode: 'CAL', active: true, locations, ...extra };
}

/** One UTC location open 09:00-17:00 on weekdays. */
export function officeUtc(holidays: SnapshotHoliday[] = []): CalendarSnapshot {
  return calendar([location('HQ', 'UTC', hours(WEEKDAYS, '09:00', '17:00'), holidays)]);
}
