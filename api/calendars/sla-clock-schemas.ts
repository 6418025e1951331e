import { z } from '@hono/zod-openapi';
import { processKeySchema } from '../../domain/calendar/index';
import { SLA_CLOCK_STATES } from '../../domain/calendar/sla-clock-process';
import { int32, int32Param, storable, text } from '../vocabulary';

export const CLOCK_PAGE_SIZE_CAP = 200;
export const CLOCK_DEFAULT_PAGE_SIZE = 50;

const iso = z.string().openapi({ format: 'date-time' });
const isoOrNull = iso.nullable();

export const SlaClockState = z.enum(SLA_CLOCK_STATES).openapi('SlaClockState');

/** What a clock measures: a ticket, a case, a form instance… named by the caller. */
const subjectKind = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'must be 1-64 letters, digits, _ - . (starting with a letter)')
  .openapi({ example: 'ticket' });
const subjectId = text({ max: 200 }).openapi({ example: 'T-4711' });

export const SlaClockStartBody = z
  .object({
    processCalendarKey: storable(processKeySchema.clone()).openapi({ description: 'A process association: its calendar counts the budget', example: 'support-tickets' }),
    receivedAt: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: 'When the clock starts (not in the future, at most 366 days ago); default now. Consumption starts at the next whole minute.' }),
    budget: z
      .object({
        days: int32({ max: 3650 }).default(0).openapi({ description: "Business days of the calendar's businessDayMinutes" }),
        minutes: int32({ max: 5_256_000 }).default(0),
      })
      .refine((b) => b.days + b.minutes > 0, { message: 'a clock needs a budget of at least one business minute' }),
    subject: z.object({ kind: subjectKind, id: subjectId }),
    warnAt: z
      .array(int32({ min: 1, max: 99 }))
      .max(10)
      .refine((a) => new Set(a).size === a.length, { message: 'percentages must be distinct' })
      .optional()
      .openapi({ description: 'Warning percentages of the budget (1-99); default [50, 75]', example: [50, 75] }),
  })
  .openapi('SlaClockStart');

export const SlaClockListQuery = z.object({
  subjectKind: subjectKind.optional(),
  subjectId: subjectId.optional(),
  state: SlaClockState.optional(),
  limit: int32Param()
    .default(CLOCK_DEFAULT_PAGE_SIZE)
    .openapi({ description: `Page size, default ${CLOCK_DEFAULT_PAGE_SIZE}; values above ${CLOCK_PAGE_SIZE_CAP} are served as ${CLOCK_PAGE_SIZE_CAP}` }),
  cursor: text({ max: 200 }).optional().openapi({ description: '`nextCursor` of the previous page' }),
});

export const SlaClock = z
  .object({
    id: z.string().uuid(),
    processCalendarKey: z.string(),
    calendarCode: z.string(),
    subject: z.object({ kind: z.string(), id: z.string() }),
    state: SlaClockState,
    receivedAt: iso,
    startedAt: iso.openapi({ description: 'The first whole minute at or after receivedAt' }),
    budget: z.object({ days: z.number().int(), minutes: z.number().int(), totalMinutes: z.number().int() }),
    warnAt: z.array(z.number().int()),
    dueAt: isoOrNull.openapi({ description: 'When the budget runs out at this pace; null while PAUSED (or when the calendar has no business time left)' }),
    pausedAt: isoOrNull,
    elapsedBusinessMinutes: z.number().openapi({ description: 'Business minutes consumed so far (to the millisecond)' }),
    remainingBusinessMinutes: z.number(),
    warnings: z.array(z.object({ percent: z.number().int(), at: iso, recordedAt: iso })).openapi({ description: 'Each warning reached: the business instant and when it was recorded' }),
    breachedAt: isoOrNull,
    stoppedAt: isoOrNull,
    cancelledAt: isoOrNull,
    createdBy: z.string(),
    createdAt: iso,
    updatedAt: iso,
  })
  .openapi('SlaClock');

export const SlaClockEvent = z
  .object({
    kind: z.enum(['started', 'paused', 'resumed', 'warning', 'breached', 'met', 'stopped', 'cancelled', 'recomputed']),
    at: iso,
    detail: z.record(z.string(), z.unknown()),
    recordedAt: iso,
  })
  .openapi('SlaClockEvent');

export const SlaClockDetail = SlaClock.extend({
  history: z.array(SlaClockEvent).openapi({ description: 'Oldest first; the latest 200 events' }),
}).openapi('SlaClockDetail');

export const SlaClockPage = z
  .object({
    items: z.array(SlaClock),
    limit: z.number().int(),
    nextCursor: z.string().nullable().openapi({ description: 'Pass as `cursor` for the next (older) page; null on the last page' }),
  })
  .openapi('SlaClockPage');
