/**
 * Shapes of the business-calendar capability, with the spec's field names.
 * Entities are what the routes store and answer; the engine reads a calendar *snapshot* (plain data
 * the route assembles from rows) and answers SlaResult, AvailabilityWindow[] and IsOpenResult.
 */

export interface BusinessCalendar {
  id: string;
  calendarCode: string;
  name: string;
  description?: string | null;
  active: boolean;
  createdAt?: string;
  updatedAt?: string;
}

export interface CalendarLocation {
  id: string;
  calendarId: string;
  locationCode: string;
  name: string;
  /** IANA zone; drives every conversion for this location. */
  timezone: string;
  country?: string | null;
  region?: string | null;
  city?: string | null;
  enabled: boolean;
  sortOrder: number;
}

export interface BusinessHours {
  id: string;
  locationId: string;
  /** 1 = Monday .. 7 = Sunday */
  dayOfWeek: number;
  /** `HH:mm` */
  startTime: string;
  /** `HH:mm` or `24:00`; not after startTime means the window runs past midnight. */
  endTime: string;
  label?: string | null;
  /** Descriptive only: does not change the minutes counted. */
  partial?: boolean;
  /** Descriptive only. */
  capacityPercent?: number | null;
  /** Descriptive only. */
  partialReason?: string | null;
  active: boolean;
  /** Inclusive local date `YYYY-MM-DD`. */
  effectiveFrom?: string | null;
  /** Inclusive local date `YYYY-MM-DD`. */
  effectiveUntil?: string | null;
}

export interface Holiday {
  id: string;
  locationId: string;
  /** Local calendar date `YYYY-MM-DD`. */
  date: string;
  name: string;
  type?: string | null;
  /** With closed=false: start of the part of the date that stays open (`HH:mm`). */
  openFrom?: string | null;
  /** With closed=false: end of the part of the date that stays open (`HH:mm` or `24:00`). */
  openUntil?: string | null;
  closed: boolean;
  description?: string | null;
  /** Repeats on its month and day every year (29 February only in leap years). */
  recurring: boolean;
}

export type Priority = 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';

export interface ProcessCalendarAssociation {
  id: string;
  processDefinitionKey: string;
  calendarCode: string;
  slaBusinessDays: number;
  slaBusinessMinutes: number;
  priority: Priority;
  active: boolean;
}

export interface SlaResult {
  receivedDateTimeUtc: string;
  dueDateTimeUtc: string;
  dueDateTimeLocal: string;
  totalBusinessMinutesConsumed: number;
  calendarCode: string;
  locationsUsed: string[];
}

export interface AvailabilityWindow {
  start: string;
  end: string;
  durationMinutes: number;
  activeLocations: string[];
}

export interface IsOpenResult {
  open: boolean;
  openLocations: string[];
  /** Next instant (ISO UTC) at which the set of open locations changes; null if none within the horizon. */
  nextChangeAt: string | null;
}

// ---------------------------------------------------------------------------------------------
// Engine input: a snapshot of one calendar. Entity rows are assignable to these shapes.

/** The business-hours fields the engine reads (BusinessHours rows fit). */
export interface SnapshotHours {
  dayOfWeek: number;
  startTime: string;
  endTime: string;
  /** Default true. */
  active?: boolean;
  effectiveFrom?: string | null;
  effectiveUntil?: string | null;
}

/** The holiday fields the engine reads (Holiday rows fit). */
export interface SnapshotHoliday {
  date: string;
  name?: string;
  openFrom?: string | null;
  openUntil?: string | null;
  closed: boolean;
  /** Default false. */
  recurring?: boolean;
}

export interface SnapshotLocation {
  locationCode: string;
  timezone: string;
  /** Default true. */
  enabled?: boolean;
  hours: readonly SnapshotHours[];
  holidays: readonly SnapshotHoliday[];
}

/**
 * A calendar as the engine sees it. Pass locations in display order (sortOrder): result location
 * lists follow this order.
 */
export interface CalendarSnapshot {
  calendarCode: string;
  active: boolean;
  /** Length of one business day in minutes, for budgets in business days. Default 480. */
  businessDayMinutes?: number;
  locations: readonly SnapshotLocation[];
}

export interface SlaBudget {
  businessDays?: number;
  businessMinutes?: number;
}

export interface SlaRequest {
  /**
   * ISO local date-time (read in receivedTimezone), or an instant with an offset or Z; a Date or
   * epoch ms is taken as an instant.
   */
  receivedDateTime: string | Date | number;
  /** IANA zone of a local receivedDateTime and of dueDateTimeLocal. */
  receivedTimezone?: string;
  sla: SlaBudget;
}

export interface EngineOptions {
  /** How far past the start the engine looks for business minutes. Default DEFAULT_HORIZON_DAYS. */
  horizonDays?: number;
}
