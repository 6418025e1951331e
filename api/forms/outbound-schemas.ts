// Bodies and answers of the outbound and recipient routes.
import { z } from '@hono/zod-openapi';
import { KEY_PATTERN } from '../../domain/forms/field-types';
import { MAX_ACCESS_TOKEN_LENGTH, OTP_DIGITS } from '../../domain/forms/otp';
import { OUTBOUND_ROLES } from '../../domain/forms/outbound-roles';
import { boundedJson, credential, text } from '../vocabulary';

const jsonMap = (description: string) =>
  boundedJson({ maxBytes: 256 * 1024, maxDepth: 8, maxNodes: 5000, maxKeyLength: 200 })
    .pipe(z.record(z.string(), z.unknown()))
    .openapi({ type: 'object', description });

export const OutboundConfigBody = z
  .object({
    roles: z
      .record(z.string().regex(KEY_PATTERN, 'must be a field key'), z.enum(OUTBOUND_ROLES))
      .refine((r) => Object.keys(r).length <= 200, 'at most 200 roles')
      .openapi({ description: 'Field key → PREPARER (sender only), RECIPIENT (recipient only) or EITHER; a field without a role is EITHER. Replaces the roles.' }),
  })
  .openapi('OutboundConfig');

export const OutboundConfigView = z
  .object({ definitionId: z.string(), roles: z.record(z.string(), z.enum(OUTBOUND_ROLES)) })
  .openapi('OutboundConfigSaved');

export const SendBody = z
  .object({
    recipient: z.object({
      email: z.email().max(254).openapi({ description: 'Where the link and the codes are e-mailed' }),
      name: text({ max: 200 }).refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must not contain control characters').optional(),
    }),
    prefill: jsonMap('Field values set by the sender; each key a value-holding field of the published version, never a RECIPIENT field').optional(),
    expiresAt: z.iso.datetime({ offset: true }).optional().openapi({ description: 'In the future; default now + `forms.outbound.default-expiry-days`' }),
    context: jsonMap('Links back to a process (processInstanceId, taskId, businessKey, ...); platform keys are dropped').optional(),
  })
  .openapi('SendOutboundForm');

export const SentView = z
  .object({
    instanceId: z.string(),
    token: z.string().openapi({ description: 'The opaque instance token (256 random bits)' }),
    link: z.string().openapi({ description: '`public.base-url` + `/respond/{token}`' }),
    expiresAt: z.string(),
    deliveryStatus: z.enum(['SENT', 'FAILED']).openapi({ description: 'Whether the SMTP server accepted the link e-mail (also recorded in the instance recipient map)' }),
  })
  .openapi('OutboundFormSent');


/** The access token verify answers is base64url. */
export const BEARER = /^Bearer ([A-Za-z0-9_-]+)$/;

export const AccessHeader = z.object({
  authorization: credential(BEARER, 'Bearer '.length + MAX_ACCESS_TOKEN_LENGTH).openapi({
    param: { name: 'authorization', in: 'header' },
    description: '`Bearer <accessToken>` from verify; missing or any other value is the one 404',
  }),
});

export const VerifyBody = z
  .object({ code: z.string().regex(new RegExp(`^[0-9]{${OTP_DIGITS}}$`), `must be the ${OTP_DIGITS}-digit code`).openapi({ example: '042917' }) })
  .openapi('RecipientCode');
export const AccessView = z.object({ accessToken: z.string(), expiresAt: z.string() }).openapi('RecipientAccess');
export const AutosaveBody = z.object({ data: jsonMap('The answers so far (replace the saved ones)') }).openapi('RecipientAutosave');
export const RecipientSubmitBody = z.object({ data: jsonMap('Answers merged over the saved ones').optional() }).openapi('RecipientSubmit');

export const RecipientFormView = z
  .object({
    code: z.string(),
    version: z.number().int(),
    title: z.string(),
    schema: z.record(z.string(), z.unknown()),
    prefill: z.record(z.string(), z.unknown()),
    data: z.record(z.string(), z.unknown()).openapi({ description: 'The saved answers (prefill not merged in)' }),
    roles: z.record(z.string(), z.enum(OUTBOUND_ROLES)).openapi({ description: 'Pinned at send: PREPARER fields are read-only for the recipient' }),
    state: z.string(),
    expiresAt: z.string().nullable(),
  })
  .openapi('RecipientForm');
