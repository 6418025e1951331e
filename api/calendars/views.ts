import type { HolidayRow, HoursRow } from '../../db/queries/calendar-rules';
import type { CalendarRow, LocationRow } from '../../db/queries/calendars';
import type { AssociationRow } from '../../db/queries/process-calendars';

const iso = (d: Date) => d.toISOString();

export const calendarView = (r: CalendarRow) => ({
  id: r.id,
  calendarCode: r.calendarCode,
  name: r.name,
  description: r.description,
  active: r.active,
  businessDayMinutes: r.businessDayMinutes,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

export const locationView = (r: LocationRow) => ({
  id: r.id,
  calendarId: r.calendarId,
  locationCode: r.locationCode,
  name: r.name,
  timezone: r.timezone,
  country: r.country,
  region: r.region,
  city: r.city,
  enabled: r.enabled,
  sortOrder: r.sortOrder,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

export const hoursView = (r: HoursRow) => ({
  id: r.id,
  locationId: r.locationId,
  dayOfWeek: r.dayOfWeek,
  startTime: r.startTime,
  endTime: r.endTime,
  label: r.label,
  partial: r.partial,
  capacityPercent: r.capacityPercent,
  partialReason: r.partialReason,
  active: r.active,
  effectiveFrom: r.effectiveFrom,
  effectiveUntil: r.effectiveUntil,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

export const holidayView = (r: HolidayRow) => ({
  id: r.id,
  locationId: r.locationId,
  date: r.date,
  name: r.name,
  type: r.type,
  openFrom: r.openFrom,
  openUntil: r.openUntil,
  closed: r.closed,
  description: r.description,
  recurring: r.recurring,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

export const associationView = (r: AssociationRow) => ({
  id: r.id,
  processDefinitionKey: r.processDefinitionKey,
  calendarCode: r.calendarCode,
  slaBusinessDays: r.slaBusinessDays,
  slaBusinessMinutes: r.slaBusinessMinutes,
  priority: r.priority,
  active: r.active,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});
