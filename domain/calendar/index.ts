/**
 * Business calendars and SLA: the pure engine (no I/O). Routes assemble a CalendarSnapshot from
 * rows and call calculateSla / computeAvailability / isCalendarOpen; CalendarEngineError.kind maps
 * to HTTP (inactive-calendar 409, unreachable 422, span-too-large 400, invalid-input 400). A
 * caller that keeps compileCalendar's result per calendar version keeps its open-time index warm
 * (openTimeIndexFootprint reports its size).
 */
export * from './types.js';
export * from './errors.js';
export * from './schemas.js';
export { calculateSla, budgetMinutes, DEFAULT_HORIZON_DAYS, MAX_HORIZON_DAYS } from './sla.js';
export { computeAvailability, MAX_AVAILABILITY_SPAN_DAYS, type AvailabilityRequest } from './availability.js';
export { isCalendarOpen, nextLocationOpening, DEFAULT_IS_OPEN_HORIZON_DAYS } from './is-open.js';
export {
  compileCalendar,
  toCompiledCalendar,
  DEFAULT_BUSINESS_DAY_MINUTES,
  type CompiledCalendar,
} from './calendar-model.js';
export {
  openTimeIndexOf,
  openTimeIndexFootprint,
  configureOpenTimeIndex,
  OpenTimeIndex,
  type OpenTimeIndexOptions,
  type OpenTimeIndexFootprint,
} from './open-time-index.js';
export {
  listAvailableCountries,
  previewHolidays,
  mergeImportedHolidays,
  importedToHolidayInput,
  HOLIDAY_IMPORT_TYPES,
  type AvailableCountry,
  type AvailableRegion,
  type ImportedHoliday,
  type HolidayPreviewRequest,
  type HolidayImportType,
  type ExistingHolidayKey,
} from './holidays-import.js';
export {
  isValidTimeZone,
  parseInstant,
  wallToInstant,
  zoneOffset,
  formatInZone,
  type InstantInput,
} from './local-time.js';
