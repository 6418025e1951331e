import { z } from '@hono/zod-openapi';
import { int32Param, text } from '../vocabulary';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_CAP, RedialPolicy } from './schemas';

const iso = z.string().openapi({ format: 'date-time' });

/** As people write numbers; normalised to E.164 by the service (400 `invalid-phone-number`). */
export const NumberParam = z.object({
  number: text({ max: 40 }).openapi({ param: { name: 'number', in: 'path' }, description: 'International form, URL-encoded (`%2B14155550123`); spaces, dots, dashes and brackets are allowed' }),
});

export const DoNotCallEntry = z
  .object({
    number: z.string().openapi({ description: 'E.164' }),
    source: z.enum(['api', 'ended-reason', 'assistant-tool']).openapi({ description: 'Who put it on the list' }),
    callId: z.string().uuid().nullable().openapi({ description: 'The call in which the callee asked (automatic sources)' }),
    addedBy: z.string(),
    createdAt: iso,
  })
  .openapi('DoNotCallEntry');

export const DoNotCallPage = z
  .object({ items: z.array(DoNotCallEntry), limit: z.number().int(), nextCursor: z.string().nullable() })
  .openapi('DoNotCallPage');

export const DoNotCallListQuery = z.object({
  limit: int32Param().default(DEFAULT_PAGE_SIZE).openapi({ description: `Page size, default ${DEFAULT_PAGE_SIZE}; capped at ${PAGE_SIZE_CAP}` }),
  cursor: text({ max: 200 }).optional().openapi({ description: '`nextCursor` of the previous page' }),
});

export const CallingPolicyBody = z
  .object({
    callingCalendarKey: text({ max: 200 })
      .nullable()
      .optional()
      .openapi({ description: 'processDefinitionKey of a process calendar association: calls are placed only in its open hours' }),
    redial: RedialPolicy.nullable().optional().openapi({ description: 'Assistants only: redial policy of their calls' }),
  })
  .strict()
  .openapi('PhoneCallingPolicyInput');

export const CallingPolicy = z
  .object({
    subjectKind: z.enum(['assistant', 'phone-number']),
    subjectId: z.string(),
    callingCalendarKey: z.string().nullable(),
    redial: RedialPolicy.nullable(),
    updatedBy: z.string(),
    updatedAt: iso,
  })
  .openapi('PhoneCallingPolicy');
