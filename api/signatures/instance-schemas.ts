// Bodies and answers of the campaign routes and the public signing routes.
import { z } from '@hono/zod-openapi';
import { MAX_ACCESS_TOKEN_LENGTH } from '../../domain/forms/otp';
import { RECIPIENT_STATES, SEAL_STATES, SIGNATURE_INSTANCE_STATES, DELIVERY_STATES } from '../../domain/signatures/instance-states';
import { MAX_SIGNING_TOKEN_LENGTH } from '../../services/signatures/recipient-box';
import { BEARER } from '../forms/outbound-schemas';
import { credential, text } from '../vocabulary';

const plainText = (max: number) => text({ max }).refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must not contain control characters');
const variablesMap = z
  .record(z.string().max(100), text({ min: 0, max: 10_000, trim: false }))
  .refine((m) => Object.keys(m).length <= 200, 'at most 200 variables')
  .openapi({ description: 'Merge values by variable key; keys the version does not declare are dropped' });

const RecipientInput = z.object({
  signerId: text({ max: 100 }).openapi({ description: 'A signer role of the published version' }),
  name: plainText(200),
  email: z.email().max(254),
});

export const StartCampaignBody = z
  .object({
    definitionId: z.string().uuid(),
    recipients: z.array(RecipientInput).min(1).max(50).openapi({ description: 'Exactly one recipient per signer role' }),
    variables: variablesMap.optional(),
    expiresAt: z.iso.datetime({ offset: true }).optional().openapi({ description: 'In the future; the campaign becomes EXPIRED then. Absent: no expiry' }),
    timeZone: text({ max: 64 }).optional().openapi({ description: 'IANA zone DATE fields are written in; default UTC', example: 'Europe/Berlin' }),
  })
  .openapi('StartSignatureCampaign');

export const LegacySignatureBody = z
  .object({
    definitionId: z.string().uuid(),
    recipient: RecipientInput.omit({ signerId: true }),
    variables: variablesMap.optional(),
  })
  .openapi('LegacySignatureRequest');

const summaryFields = {
  id: z.string(),
  definitionId: z.string(),
  version: z.number().int().openapi({ description: 'The pinned published version' }),
  status: z.enum(SIGNATURE_INSTANCE_STATES),
  sealStatus: z.enum(SEAL_STATES).nullable(),
  sealError: z.string().nullable().openapi({ description: 'Why the last seal failed (an error code or class)' }),
  variables: z.record(z.string(), z.string()),
  timeZone: z.string(),
  expiresAt: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
};

export const InstanceSummary = z.object(summaryFields).openapi('SignatureInstanceSummary');

const RecipientView = z
  .object({
    signerId: z.string(),
    order: z.number().int(),
    status: z.enum(RECIPIENT_STATES),
    verify: z.string(),
    token: z.string().openapi({ description: 'The signing token (256 random bits); stored sealed, shown to the tenant for delivery' }),
    signingUrl: z.string().openapi({ description: '`public.base-url` + `/sign/{token}`' }),
    deliveryStatus: z.enum(DELIVERY_STATES).nullable().openapi({ description: 'Whether the SMTP server accepted the last link or reminder; null until mailed' }),
    openedAt: z.string().nullable(),
    signedAt: z.string().nullable(),
    lastRemindedAt: z.string().nullable(),
  })
  .openapi('SignatureRecipient');

const EventView = z
  .object({
    action: z.string(),
    signerId: z.string().nullable(),
    at: z.string(),
    ipRisk: z.string().nullable().openapi({ description: 'Offline class of the client address (the address itself stays sealed)' }),
    geo: z.string().nullable().openapi({ description: 'Country code (or country/region)' }),
  })
  .openapi('SignatureInstanceEvent');

export const InstanceDetail = z
  .object({ ...summaryFields, recipients: z.array(RecipientView), events: z.array(EventView) })
  .openapi('SignatureInstance');

export const InstancePage = z.object({ items: z.array(InstanceSummary), nextCursor: z.string().nullable() }).openapi('SignatureInstancePage');

export const InstanceListQuery = z.object({
  status: z.enum(SIGNATURE_INSTANCE_STATES).optional(),
  definitionId: z.string().uuid().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: text({ max: 200 }).optional().openapi({ description: '`nextCursor` of the previous page' }),
});

export const RemindView = z
  .object({ signerId: z.string(), deliveryStatus: z.enum(DELIVERY_STATES) })
  .openapi('SignatureReminder');

export const SigningTokenPath = z.object({
  token: z
    .string()
    .min(1)
    .max(MAX_SIGNING_TOKEN_LENGTH)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be a signing token (base64url)')
    .openapi({ param: { name: 'token', in: 'path' }, description: 'The signing token of the recipient link' }),
});

export const SignerAccessHeader = z.object({
  authorization: credential(BEARER, 'Bearer '.length + MAX_ACCESS_TOKEN_LENGTH)
    .optional()
    .openapi({ param: { name: 'authorization', in: 'header' }, description: 'EMAIL_OTP recipients: `Bearer <accessToken>` from verify' }),
});

const pngBase64 = (what: string) =>
  z
    .string()
    .max(1_000_000)
    .regex(/^(data:image\/png;base64,)?[A-Za-z0-9+/=]*$/, 'must be base64')
    .openapi({ description: `${what}: a PNG, base64 (a data: URL prefix is accepted), at most \`signatures.signature-png-max-bytes\` decoded` });

export const SignBody = z
  .object({
    signaturePng: pngBase64('The drawn signature').optional(),
    initialsPng: pngBase64('Drawn initials').optional(),
    typedName: plainText(200).optional().openapi({ description: 'A typed signature, rendered by the seal' }),
    consent: z.boolean().openapi({ description: 'Consent to sign electronically; must be true' }),
    fieldValues: z
      .record(z.string().max(100), text({ min: 0, max: 2000, trim: false }))
      .refine((m) => Object.keys(m).length <= 500, 'at most 500 values')
      .optional()
      .openapi({ description: "Values of this recipient's TEXT fields, by field id" }),
  })
  .openapi('SignatureSubmission');

export const SignedView = z
  .object({ signerId: z.string(), status: z.literal('R_SIGNED'), instanceStatus: z.enum(SIGNATURE_INSTANCE_STATES) })
  .openapi('SignatureSigned');

export const SessionView = z
  .object({
    pdfBase64: z.string().openapi({ description: 'The source PDF of the pinned version' }),
    document: z.object({ name: z.string(), pageCount: z.number().int().nullable() }),
    fields: z.array(
      z.object({ id: z.string(), signerId: z.string(), type: z.string(), page: z.number().int(), x: z.number(), y: z.number(), w: z.number(), h: z.number() }),
    ),
    variables: z.record(z.string(), z.string()),
    variableList: z
      .array(z.object({ key: z.string(), label: z.string(), value: z.string() }))
      .openapi({ description: "The merged variables with their labels, in the signing schema's order (a key the schema does not declare is labelled by its key)" }),
    signer: z.object({
      id: z.string(),
      label: z.string(),
      name: z.string().openapi({ description: 'The name the sender gave this recipient (their own, shown on the signing page)' }),
    }),
    status: z.enum(RECIPIENT_STATES),
    routing: z.object({
      mode: z.enum(['sequential', 'parallel']),
      order: z.number().int().openapi({ description: "This recipient's order" }),
      groups: z.number().int().openapi({ description: 'How many order groups the campaign has' }),
      signedGroups: z.array(z.number().int()).openapi({ description: 'The orders of the groups whose recipients all signed' }),
    }),
  })
  .openapi('SigningSession');
