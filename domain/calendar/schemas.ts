/**
 * zod schemas of the calendar capability's shapes, with the spec's field names, for routes to
 * reuse: field formats (IANA zone, `HH:mm`, `YYYY-MM-DD`, dayOfWeek 1..7), entity inputs, the SLA
 * request and the engine snapshot.
 */
import { z } from 'zod';
import { invalidInput } from './errors.js';
import {
  isValidTimeZone,
  tryParseDateKey,
  tryParseLocalDateTime,
  tryParseOffsetDateTime,
  tryParseTimeOfDay,
} from './local-time.js';

// ---------------------------------------------------------------------------------------------
// Field formats

/** The range of an `integer` column: a value beyond it is a 400 here, not a database error. */
const INT32_MAX = 2_147_483_647;
const nonNegativeInt32 = () => z.number().int().min(0).max(INT32_MAX);

export const timeZoneSchema = z.string().max(64).refine(isValidTimeZone, { message: 'must be an IANA time zone' });

/** `HH:mm`, 00:00..23:59 (a start, or openFrom). */
export const startTimeSchema = z
  .string()
  .max(5)
  .refine((s) => tryParseTimeOfDay(s, false) !== undefined, { message: 'must be HH:mm (00:00 to 23:59)' });

/** `HH:mm` or `24:00` (an end, or openUntil). */
export const endTimeSchema = z
  .string()
  .max(5)
  .refine((s) => tryParseTimeOfDay(s, true) !== undefined, { message: 'must be HH:mm (00:00 to 24:00)' });

/** A real calendar date `YYYY-MM-DD`. */
export const localDateSchema = z
  .string()
  .max(10)
  .refine((s) => tryParseDateKey(s) !== undefined, { message: 'must be a date YYYY-MM-DD' });

export const dayOfWeekSchema = z.number().int().min(1).max(7);

/** Calendar and location codes: letters, digits, `_`, `-`, `.`; 1 to 64 characters. */
export const codeSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { message: 'must be 1-64 letters, digits, _ - . (not starting with a symbol)' });

/** A process definition key: what associations are keyed by and addressed with in paths. */
export const processKeySchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters');

/** An ISO-8601 instant with an offset or Z. */
export const instantSchema = z
  .string()
  .max(64)
  .refine((s) => tryParseOffsetDateTime(s) !== undefined, { message: 'must be an ISO-8601 date-time with an offset or Z' });

/** An ISO-8601 local date-time, or one with an offset or Z. */
export const dateTimeSchema = z
  .string()
  .max(64)
  .refine((s) => tryParseOffsetDateTime(s) !== undefined || tryParseLocalDateTime(s.trim()) !== undefined, {
    message: 'must be an ISO-8601 date-time (local, or with an offset or Z)',
  });

// ---------------------------------------------------------------------------------------------
// Entities: inputs (create/update bodies)

export const businessCalendarInputSchema = z.object({
  calendarCode: codeSchema,
  name: z.string().min(1).max(200),
  description: z.string().max(2000).nullish(),
  active: z.boolean().default(true),
  /** Length of one business day in minutes (budgets in business days). */
  businessDayMinutes: z.number().int().min(1).max(1440).optional(),
});

export const calendarLocationInputSchema = z.object({
  locationCode: codeSchema,
  name: z.string().min(1).max(200),
  timezone: timeZoneSchema,
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, { message: 'must be an ISO 3166-1 alpha-2 code' })
    .nullish(),
  region: z.string().max(20).nullish(),
  city: z.string().max(200).nullish(),
  enabled: z.boolean().default(true),
  sortOrder: z.number().int().min(-INT32_MAX - 1).max(INT32_MAX).default(0),
});

const effectiveRangeOk = (v: { effectiveFrom?: string | null | undefined; effectiveUntil?: string | null | undefined }) =>
  !v.effectiveFrom || !v.effectiveUntil || v.effectiveFrom <= v.effectiveUntil;

const businessHoursFields = {
  dayOfWeek: dayOfWeekSchema,
  startTime: startTimeSchema,
  /** Not after startTime: the window runs past midnight into the next day. */
  endTime: endTimeSchema,
  label: z.string().max(200).nullish(),
  partial: z.boolean().default(false),
  capacityPercent: z.number().int().min(0).max(100).nullish(),
  partialReason: z.string().max(500).nullish(),
  active: z.boolean().default(true),
  effectiveFrom: localDateSchema.nullish(),
  effectiveUntil: localDateSchema.nullish(),
};

export const businessHoursInputSchema = z
  .object(businessHoursFields)
  .refine(effectiveRangeOk, { message: 'effectiveUntil must not be before effectiveFrom', path: ['effectiveUntil'] });

const holidayFields = {
  date: localDateSchema,
  name: z.string().min(1).max(200),
  type: z.string().max(40).nullish(),
  openFrom: startTimeSchema.nullish(),
  openUntil: endTimeSchema.nullish(),
  closed: z.boolean().default(true),
  description: z.string().max(2000).nullish(),
  recurring: z.boolean().default(false),
};

/** closed=false narrows the date: both openFrom and openUntil are needed, openFrom before openUntil. */
const narrowedOk = (
  v: { closed: boolean; openFrom?: string | null | undefined; openUntil?: string | null | undefined },
  ctx: z.RefinementCtx,
) => {
  if (v.closed) return;
  if (!v.openFrom) ctx.addIssue({ code: 'custom', path: ['openFrom'], message: 'required when closed is false' });
  if (!v.openUntil) ctx.addIssue({ code: 'custom', path: ['openUntil'], message: 'required when closed is false' });
  if (v.openFrom && v.openUntil) {
    const from = tryParseTimeOfDay(v.openFrom, false);
    const until = tryParseTimeOfDay(v.openUntil, true);
    if (from !== undefined && until !== undefined && until <= from) {
      ctx.addIssue({ code: 'custom', path: ['openUntil'], message: 'must be after openFrom' });
    }
  }
};

export const holidayInputSchema = z.object(holidayFields).superRefine(narrowedOk);

export const prioritySchema = z.enum(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']);

export const processCalendarAssociationInputSchema = z.object({
  processDefinitionKey: processKeySchema,
  calendarCode: codeSchema,
  slaBusinessDays: nonNegativeInt32().default(0),
  slaBusinessMinutes: nonNegativeInt32().default(0),
  priority: prioritySchema.default('MEDIUM'),
  active: z.boolean().default(true),
});

// ---------------------------------------------------------------------------------------------
// Requests

export const slaBudgetSchema = z.object({
  businessDays: nonNegativeInt32().default(0),
  businessMinutes: nonNegativeInt32().default(0),
});

/** `POST /sla/calculate` with an explicit calendar and budget. */
export const slaCalculateRequestSchema = z.object({
  calendarCode: codeSchema,
  receivedDateTime: dateTimeSchema,
  receivedTimezone: timeZoneSchema,
  sla: slaBudgetSchema,
});

export const availabilityQuerySchema = z.object({
  from: dateTimeSchema,
  to: dateTimeSchema,
  /** Zone for from/to written without an offset. */
  timezone: timeZoneSchema.optional(),
});

export const isOpenQuerySchema = z.object({
  at: instantSchema.optional(),
});

// ---------------------------------------------------------------------------------------------
// Engine snapshot

export const snapshotHoursSchema = z
  .object({
    dayOfWeek: dayOfWeekSchema,
    startTime: startTimeSchema,
    endTime: endTimeSchema,
    active: z.boolean().optional(),
    effectiveFrom: localDateSchema.nullish(),
    effectiveUntil: localDateSchema.nullish(),
  })
  .refine(effectiveRangeOk, { message: 'effectiveUntil must not be before effectiveFrom', path: ['effectiveUntil'] });

export const snapshotHolidaySchema = z.object({
  date: localDateSchema,
  name: z.string().optional(),
  openFrom: startTimeSchema.nullish(),
  openUntil: endTimeSchema.nullish(),
  closed: z.boolean(),
  recurring: z.boolean().optional(),
});

export const calendarSnapshotSchema = z.object({
  calendarCode: z.string(),
  active: z.boolean(),
  businessDayMinutes: z.number().int().min(1).optional(),
  locations: z.array(
    z.object({
      locationCode: z.string(),
      timezone: timeZoneSchema,
      enabled: z.boolean().optional(),
      hours: z.array(snapshotHoursSchema),
      holidays: z.array(snapshotHolidaySchema),
    }),
  ),
});

/**
 * Parses `value` with `schema`, or throws CalendarEngineError('invalid-input') whose `issues`
 * carry the field paths.
 */
export function parseCalendarInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => ({
    path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    message: i.message,
  }));
  const first = issues[0];
  throw invalidInput(
    first ? `${first.path.join('.') || '(root)'}: ${first.message}` : 'invalid input',
    issues,
  );
}
