/**
 * Shapes of the business-calendar engine, with the spec's field names: it reads a calendar
 * *snapshot* (plain data the caller assembles from rows) and answers SlaResult,
 * AvailabilityWindow[] and IsOpenResult.
 */

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
// Engine input: a snapshot of one calendar. Stored rows are assignable to these shapes.

/** The business-hours fields the engine reads (business_hours rows fit). */
export interface SnapshotHours {
  dayOfWeek: number;
  startTime: string;
  endTime: string;
  /** Default true. */
  active?: boolean;
  effectiveFrom?: string | null;
  effectiveUntil?: string | null;
}

/** The holiday fields the engine reads (holidays rows fit). */
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
