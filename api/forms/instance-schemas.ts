// Bodies, queries and the view of the form instance routes.
import { z } from '@hono/zod-openapi';
import type { FormInstanceRow } from '../../db/queries/form-instances';
import { definitionCodePattern } from '../../domain/definitions/definition-code';
import { FORM_INSTANCE_ORIGINS } from '../../domain/forms/instance-origins';
import { FORM_INSTANCE_STATES } from '../../domain/forms/instance-states';
import { boundedJson, int32, text } from '../vocabulary';

/** Free-form maps (data, prefill, context, recipient): bounded like every free-form JSON input. */
const jsonMap = (description: string) =>
  boundedJson({ maxBytes: 256 * 1024, maxDepth: 8, maxNodes: 5000, maxKeyLength: 200 })
    .pipe(z.record(z.string(), z.unknown()))
    .openapi({ type: 'object', description });

const definitionCode = z.string().regex(definitionCodePattern('FM-'), 'must be an FM- form code');

export const CreateInstanceBody = z
  .object({
    definitionId: z.string().uuid().optional(),
    definitionCode: definitionCode.optional(),
    data: jsonMap('Initial field values').optional(),
    prefill: jsonMap('Prefilled values').optional(),
    context: jsonMap('Links back to a process: processInstanceId, taskId, businessKey, ...').optional(),
    recipient: jsonMap('Recipient identity (outbound)').optional(),
  })
  .refine((b) => (b.definitionId === undefined) !== (b.definitionCode === undefined), {
    message: 'give exactly one of definitionId and definitionCode',
    path: ['definitionId'],
  })
  .openapi('CreateFormInstance');

export const PatchInstanceBody = z
  .object({ data: jsonMap('The field values (replaces the stored ones)'), version: int32({ min: 1 }) })
  .openapi('SaveFormInstance');

export const SubmitInstanceBody = z
  .object({ data: jsonMap('Field values to submit; the stored ones when absent').optional() })
  .openapi('SubmitFormInstance');

export const InstanceListQuery = z.object({
  definitionCode: definitionCode.optional(),
  state: z.enum(FORM_INSTANCE_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: text({ max: 200 }).optional().openapi({ description: '`nextCursor` of the previous page' }),
});

const SubmissionOutbox = z
  .object({
    status: z.enum(['QUEUED', 'PUBLISHED', 'FAILED']).openapi({ description: 'The spec status: outbox QUEUED, STARTED/CLOSED (PUBLISHED), FAILED' }),
    outboxState: z.string().openapi({ description: 'The platform outbox state behind it' }),
    retryCount: z.number().int(),
    processInstanceId: z.string().nullable(),
  })
  .openapi('FormSubmissionOutbox');

const instanceFields = {
  id: z.string(),
  definitionId: z.string(),
  definitionCode: z.string(),
  definitionVersion: z.number().int().openapi({ description: 'The pinned definition version' }),
  state: z.enum(FORM_INSTANCE_STATES),
  version: z.number().int().openapi({ description: 'Optimistic-lock counter; send it with PATCH' }),
  origin: z.enum(FORM_INSTANCE_ORIGINS),
  prefill: z.record(z.string(), z.unknown()),
  data: z.record(z.string(), z.unknown()),
  recipient: z.record(z.string(), z.unknown()),
  context: z.record(z.string(), z.unknown()),
  expiresAt: z.string().nullable(),
  submittedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

const SubmissionPdf = z
  .object({ docId: z.string() })
  .nullable()
  .openapi({ description: 'The FORM_SUBMISSION_PDF document the intake stored (null until it did)' });

const FormEvent = z
  .object({
    id: z.string(),
    eventType: z.string().openapi({ description: 'The lower-cased state the instance moved to' }),
    state: z.enum(['QUEUED', 'SENT', 'SKIPPED', 'FAILED']),
    retryCount: z.number().int(),
  })
  .openapi('FormEventOutbox');

const Attachment = z
  .object({ docId: z.string(), filename: z.string(), sizeBytes: z.number().int().nullable() })
  .openapi('FormInstanceAttachment');

export const InstanceView = z
  .object({
    ...instanceFields,
    submissionPdf: SubmissionPdf,
    submissionOutbox: SubmissionOutbox.nullable(),
    events: z.array(FormEvent).openapi({ description: "The instance's lifecycle events on the event rail, oldest first" }),
    attachments: z.array(Attachment).openapi({ description: 'READY FORM_ATTACHMENT documents linked to the submission' }),
  })
  .openapi('FormInstance');
export const InstanceSummary = z.object({ ...instanceFields, submissionPdf: SubmissionPdf }).openapi('FormInstanceSummary');
export const InstancePage = z.object({ items: z.array(InstanceSummary), nextCursor: z.string().nullable() }).openapi('FormInstancePage');

export const instanceSummary = (r: FormInstanceRow) => ({
  id: r.id,
  definitionId: r.definitionId,
  definitionCode: r.definitionCode,
  definitionVersion: r.definitionVersion,
  state: r.state,
  version: r.version,
  origin: r.origin,
  prefill: r.prefill,
  data: r.data,
  recipient: r.recipient,
  context: r.context,
  expiresAt: r.expiresAt?.toISOString() ?? null,
  submittedAt: r.submittedAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});
