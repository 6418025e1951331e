import { z } from '@hono/zod-openapi';
import {
  HOLIDAY_IMPORT_TYPES,
  availabilityQuerySchema,
  businessCalendarInputSchema,
  businessHoursInputSchema,
  calendarLocationInputSchema,
  codeSchema,
  dateTimeSchema,
  holidayInputSchema,
  isOpenQuerySchema,
  prioritySchema,
  processCalendarAssociationInputSchema,
  processKeySchema,
  slaBudgetSchema,
  timeZoneSchema,
  type HolidayImportType,
} from '../../domain/calendar/index';
import { tryParseOffsetDateTime } from '../../domain/calendar/local-time';
import { storable, text } from '../vocabulary';

/**
 * zod 4 gives a schema the `.openapi` method only if it was built after @hono/zod-openapi loaded;
 * the domain's schemas may be built first (workers import domain/ before api/), so the ones this
 * file annotates are cloned here.
 */
const fresh = <T extends z.ZodType>(schema: T): T => schema.clone() as T;

const iso = z.string().openapi({ format: 'date-time' });

/** A body or parameter schema of this capability: cloned (see `fresh`), every string in it storable. */
const body = <T extends z.ZodType>(schema: T): T => storable(fresh(schema));
const localDate = z.string().openapi({ format: 'date', example: '2025-12-24' });

// ------------------------------------------------------------------------------------------
// Path and query parameters

export const calendarCodeParam = fresh(codeSchema).openapi({ param: { name: 'code', in: 'path' }, example: 'EU-SUPPORT' });
export const locationCodeParam = fresh(codeSchema).openapi({ param: { name: 'loc', in: 'path' }, example: 'BER' });
export const processKeyParam = body(processKeySchema).openapi({ param: { name: 'key', in: 'path' }, example: 'invoice-approval' });
export const recordIdParam = z.string().uuid().openapi({ param: { name: 'id', in: 'path' } });

export const CalendarPath = z.object({ code: calendarCodeParam });
export const LocationPath = z.object({ code: calendarCodeParam, loc: locationCodeParam });
export const LocationRecordPath = LocationPath.extend({ id: recordIdParam });

const year = z.coerce.number().int().min(1900).max(2200);
/** Comma-separated date-holidays types, e.g. `public,bank`. */
const importTypes = text({ max: 200 })
  .transform((s) => s.split(',').map((t) => t.trim()).filter((t) => t.length > 0))
  .pipe(z.array(z.enum(HOLIDAY_IMPORT_TYPES as [HolidayImportType, ...HolidayImportType[]])).min(1))
  .optional()
  .openapi({ type: 'string', maxLength: 200, description: `Comma-separated types among ${HOLIDAY_IMPORT_TYPES.join(', ')}; default public`, example: 'public,bank' });

export const HolidayListQuery = z.object({
  year: year.optional().openapi({ description: "That year's dated holidays plus every recurring one" }),
});
export const HolidayPreviewQuery = z.object({
  countryCode: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
    .optional()
    .openapi({ description: "Default: the location's country" }),
  region: text({ min: 0, max: 20 }).optional().openapi({ description: "Default: the location's region when the country is the location's" }),
  year: year.optional().openapi({ description: 'Default: the current year (UTC)' }),
  types: importTypes,
});
export const HolidayImportQuery = z.object({
  year: year.optional().openapi({ description: 'Default: the current year (UTC)' }),
  types: importTypes,
});
export const AvailabilityQuery = z.object({
  from: body(availabilityQuerySchema.shape.from),
  to: body(availabilityQuerySchema.shape.to),
  timezone: body(timeZoneSchema).optional(),
});
export const IsOpenQuery = z.object({ at: body(isOpenQuerySchema.shape.at.unwrap()).optional() });

// ------------------------------------------------------------------------------------------
// Bodies

export const CalendarCreateBody = body(businessCalendarInputSchema).openapi('BusinessCalendarCreate');
export const CalendarCreateAtCodeBody = body(businessCalendarInputSchema.partial({ calendarCode: true })).openapi(
  'BusinessCalendarCreateAtCode',
  { description: 'calendarCode may be left out; when given it must equal the path code' },
);
export const CalendarUpdateBody = body(
  businessCalendarInputSchema.extend({ calendarCode: codeSchema.optional().openapi({ description: 'A new code renames the calendar' }) }),
).openapi('BusinessCalendarUpdate', { description: 'Replaces the calendar; businessDayMinutes, when omitted, is kept' });
export const LocationCreateBody = body(calendarLocationInputSchema).openapi('CalendarLocationCreate');
export const LocationUpdateBody = body(
  calendarLocationInputSchema.extend({ locationCode: codeSchema.optional().openapi({ description: 'A new code renames the location' }) }),
).openapi('CalendarLocationUpdate');
export const HoursCreateBody = body(businessHoursInputSchema).openapi('BusinessHoursCreate');
export const HolidayCreateBody = body(holidayInputSchema).openapi('HolidayCreate');
export const AssociationCreateBody = body(processCalendarAssociationInputSchema).openapi('ProcessCalendarAssociationCreate');
export const AssociationUpdateBody = body(
  processCalendarAssociationInputSchema.extend({ processDefinitionKey: fresh(processKeySchema).optional() }),
).openapi('ProcessCalendarAssociationUpdate');

/**
 * Both forms of the spec's SLA request: `{ calendarCode, receivedDateTime, receivedTimezone, sla }`
 * or `{ processDefinitionKey, receivedDateTime, receivedTimezone }` (calendar and budget from the
 * association). receivedTimezone may be left out only when receivedDateTime carries an offset.
 */
export const SlaCalculateBody = z
  .object({
    calendarCode: codeSchema.optional(),
    processDefinitionKey: body(processKeySchema).optional(),
    receivedDateTime: body(dateTimeSchema).openapi({ example: '2025-03-28T16:30:00' }),
    receivedTimezone: body(timeZoneSchema).optional().openapi({ example: 'Europe/Berlin' }),
    sla: slaBudgetSchema.optional(),
  })
  .superRefine((v, ctx) => {
    const hasCalendar = v.calendarCode !== undefined;
    const hasProcess = v.processDefinitionKey !== undefined;
    if (hasCalendar === hasProcess) {
      ctx.addIssue({ code: 'custom', path: ['calendarCode'], message: 'give exactly one of calendarCode and processDefinitionKey' });
    }
    if (hasCalendar && v.sla === undefined) ctx.addIssue({ code: 'custom', path: ['sla'], message: 'required with calendarCode' });
    if (hasProcess && v.sla !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['sla'], message: 'the budget comes from the process association; leave sla out' });
    }
    if (v.receivedTimezone === undefined && tryParseOffsetDateTime(v.receivedDateTime) === undefined) {
      ctx.addIssue({ code: 'custom', path: ['receivedTimezone'], message: 'required when receivedDateTime has no offset' });
    }
  })
  .openapi('SlaCalculateRequest');

// ------------------------------------------------------------------------------------------
// Entities (the spec's field names) and responses

export const BusinessCalendar = z
  .object({
    id: z.string().uuid(),
    calendarCode: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    active: z.boolean(),
    businessDayMinutes: z.number().int().openapi({ description: 'Minutes in one business day of an SLA budget (default 480)' }),
    createdAt: iso,
    updatedAt: iso,
  })
  .openapi('BusinessCalendar');

export const CalendarLocation = z
  .object({
    id: z.string().uuid(),
    calendarId: z.string().uuid(),
    locationCode: z.string(),
    name: z.string(),
    timezone: z.string(),
    country: z.string().nullable(),
    region: z.string().nullable(),
    city: z.string().nullable(),
    enabled: z.boolean(),
    sortOrder: z.number().int(),
    createdAt: iso,
    updatedAt: iso,
  })
  .openapi('CalendarLocation');

export const BusinessHours = z
  .object({
    id: z.string().uuid(),
    locationId: z.string().uuid(),
    dayOfWeek: z.number().int().openapi({ description: '1 = Monday .. 7 = Sunday' }),
    startTime: z.string(),
    endTime: z.string(),
    label: z.string().nullable(),
    partial: z.boolean(),
    capacityPercent: z.number().int().nullable(),
    partialReason: z.string().nullable(),
    active: z.boolean(),
    effectiveFrom: localDate.nullable(),
    effectiveUntil: localDate.nullable(),
    createdAt: iso,
    updatedAt: iso,
  })
  .openapi('BusinessHours');

export const Holiday = z
  .object({
    id: z.string().uuid(),
    locationId: z.string().uuid(),
    date: localDate,
    name: z.string(),
    type: z.string().nullable(),
    openFrom: z.string().nullable(),
    openUntil: z.string().nullable(),
    closed: z.boolean(),
    description: z.string().nullable(),
    recurring: z.boolean(),
    createdAt: iso,
    updatedAt: iso,
  })
  .openapi('Holiday');

export const ProcessCalendarAssociation = z
  .object({
    id: z.string().uuid(),
    processDefinitionKey: z.string(),
    calendarCode: z.string(),
    slaBusinessDays: z.number().int(),
    slaBusinessMinutes: z.number().int(),
    priority: prioritySchema,
    active: z.boolean(),
    createdAt: iso,
    updatedAt: iso,
  })
  .openapi('ProcessCalendarAssociation');

export const SlaResult = z
  .object({
    receivedDateTimeUtc: iso,
    dueDateTimeUtc: iso,
    dueDateTimeLocal: z.string().openapi({ description: 'Local time with offset in receivedTimezone' }),
    totalBusinessMinutesConsumed: z.number().int(),
    calendarCode: z.string(),
    locationsUsed: z.array(z.string()),
  })
  .openapi('SlaResult');

export const AvailabilityWindow = z
  .object({ start: iso, end: iso, durationMinutes: z.number(), activeLocations: z.array(z.string()) })
  .openapi('AvailabilityWindow');

export const IsOpen = z
  .object({
    open: z.boolean(),
    openLocations: z.array(z.string()),
    nextChangeAt: iso.nullable().openapi({ description: 'When the set of open locations next changes (null: not within a year)' }),
  })
  .openapi('IsOpen');

export const PreviewHoliday = z
  .object({
    date: localDate,
    name: z.string(),
    type: z.string(),
    closed: z.boolean(),
    openFrom: z.string().nullable(),
    openUntil: z.string().nullable(),
    substitute: z.boolean().openapi({ description: 'A day off given in place of a holiday on a weekend' }),
  })
  .openapi('HolidayPreviewEntry');

export const AvailableCountry = z
  .object({
    countryCode: z.string(),
    name: z.string(),
    regions: z.array(z.object({ regionCode: z.string(), name: z.string() })),
  })
  .openapi('AvailableCountry');

export const HolidayImportResult = z
  .object({
    year: z.number().int(),
    countryCode: z.string(),
    region: z.string().nullable(),
    created: z.array(Holiday),
    skipped: z.number().int().openapi({ description: 'Entries already present (same date and name, or a recurring one)' }),
  })
  .openapi('HolidayImportResult');
