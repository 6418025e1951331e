import { z } from '@hono/zod-openapi';
import { CALL_DIRECTIONS, PHONE_CALL_STATUSES, PROCESS_STATUSES } from '../../domain/phone/call-fields';
import { NUMBER_PROVIDERS } from '../../domain/phone/number-providers';
import { E164 } from '../../domain/phone/e164';
import { MAX_BACKOFF_MINUTES, MAX_REDIAL_ATTEMPTS, REDIAL_OUTCOMES } from '../../domain/phone/redial';
import { boundedMap, int32, int32Param, text } from '../vocabulary';

const iso = z.string().openapi({ format: 'date-time' });
const e164 = z.string().max(16).regex(E164, 'must be an E.164 number such as +14155550123');
const providerId = text({ max: 200 });
const jsonMap = z.record(z.string(), z.unknown());

/**
 * Call metadata and assistant variable values are stored (jsonb), forwarded to the provider and
 * returned in every list page: bounded like this (README "Input rules").
 */
export const CALL_JSON_BOUNDS = { maxBytes: 16_384, maxDepth: 8, maxNodes: 500, maxKeyLength: 100 };
const callJson = boundedMap(CALL_JSON_BOUNDS);

export const RedialPolicy = z
  .object({
    maxAttempts: z.number().int().min(1).max(MAX_REDIAL_ATTEMPTS).openapi({ description: 'Attempts in all, the first included' }),
    backoffMinutes: z.number().min(0).max(MAX_BACKOFF_MINUTES).openapi({ description: 'Wait after an attempt ends before the next (then inside the calling window)' }),
    on: z.array(z.enum(REDIAL_OUTCOMES)).min(1).max(REDIAL_OUTCOMES.length).openapi({ description: 'Outcomes that are redialled' }),
  })
  .strict()
  .openapi('PhoneRedialPolicy', { description: "When to dial again after an attempt ends; on a placement it overrides the assistant's or number's calling policy" });

export const PAGE_SIZE_CAP = 200;
export const DEFAULT_PAGE_SIZE = 50;

export const CallStatus = z.enum(PHONE_CALL_STATUSES).openapi('PhoneCallStatus');
export const CallDirection = z.enum(CALL_DIRECTIONS).openapi('PhoneCallDirection');

const callFields = {
  id: z.string().uuid(),
  direction: CallDirection,
  status: CallStatus,
  providerCallId: z.string().nullable().openapi({ description: "The provider's call id (webhook join key)" }),
  phoneNumberId: z.string().nullable().openapi({ description: 'Provider number id the call uses' }),
  assistantId: z.string().nullable(),
  customerNumber: z.string().nullable(),
  customerName: z.string().nullable(),
  endedReason: z.string().nullable(),
  summary: z.string().nullable(),
  cost: z.number().nullable(),
  errorMessage: z.string().nullable(),
  metadata: jsonMap,
  businessKey: z.string(),
  processInstanceId: z.string().nullable().openapi({ description: 'Run id of the call process' }),
  processStatus: z.enum(PROCESS_STATUSES),
  initiatedBy: z.string().openapi({ description: 'X-User-Id, `system`, `workflow:<id>` or `provider` (inbound)' }),
  version: z.number().int(),
  createdAt: iso,
  updatedAt: iso,
  startedAt: iso.nullable(),
  endedAt: iso.nullable(),
  firstCallId: z.string().uuid().openapi({ description: 'The first call of its redial chain (its own id for the first)' }),
  attempt: z.number().int().openapi({ description: 'Attempt number within the chain, from 1' }),
  scheduledFor: iso.nullable().openapi({ description: 'When a SCHEDULED call is dialled (its calling window opens or its redial backoff ends)' }),
  callingCalendarKey: z.string().nullable().openapi({ description: 'Process calendar whose open hours are the calling window' }),
  calleeLocationCode: z.string().nullable().openapi({ description: "The calling calendar's location whose hours are the callee's window (null: any location's)" }),
  redial: RedialPolicy.nullable(),
};

export const PhoneCallSummary = z.object(callFields).openapi('PhoneCallSummary');

export const PhoneCall = z
  .object({
    ...callFields,
    transcript: z.string().nullable(),
    recordingUrl: z.string().nullable(),
    analysis: jsonMap.nullable(),
    variableValues: jsonMap,
  })
  .openapi('PhoneCall');

export const PhoneCallPage = z
  .object({
    items: z.array(PhoneCallSummary),
    limit: z.number().int().openapi({ description: `Page size served (requests above ${PAGE_SIZE_CAP} are capped)` }),
    nextCursor: z.string().nullable().openapi({ description: 'Pass as `cursor` for the next (older) page; null on the last page' }),
  })
  .openapi('PhoneCallPage');

export const CallListQuery = z.object({
  status: CallStatus.optional(),
  direction: CallDirection.optional(),
  limit: int32Param()
    .default(DEFAULT_PAGE_SIZE)
    .openapi({ description: `Page size, default ${DEFAULT_PAGE_SIZE}; values above ${PAGE_SIZE_CAP} are served as ${PAGE_SIZE_CAP}` }),
  cursor: text({ max: 200 }).optional().openapi({ description: '`nextCursor` of the previous page' }),
});

export const PlaceCallBody = z
  .object({
    customerNumber: e164,
    customerName: text({ max: 200 }).optional(),
    assistantId: providerId.optional().openapi({ description: 'Defaults to PhoneSettings.defaultAssistantId' }),
    phoneNumberId: providerId
      .optional()
      .openapi({ description: 'Provider number id; defaults to PhoneSettings.defaultPhoneNumberId' }),
    variableValues: callJson.optional().openapi({ description: "Values for the assistant's {{placeholders}}" }),
    metadata: callJson.optional(),
    // Described on PhoneRedialPolicy: a description here would wrap the reference in an allOf.
    redial: RedialPolicy.optional(),
    calleeLocationCode: text({ max: 64 })
      .optional()
      .openapi({
        description:
          "A location of the calling calendar (the callee's): the calling window is that location's open hours alone, in its time zone and with its holidays. Unset: any enabled location's. 422 `unknown-callee-location` when the calendar has no such location; ignored when the call has no calling calendar.",
      }),
  })
  .strict()
  .openapi('PlacePhoneCall');

const secret = text({ max: 500, trim: false });
const numberCommon = {
  name: text({ max: 200 }).optional(),
  assistantId: providerId.optional().openapi({ description: 'Assistant answering inbound calls on this number' }),
};

export const ProvisionNumberBody = z
  .discriminatedUnion('provider', [
    z.object({ provider: z.literal('vapi'), numberDesiredAreaCode: z.string().regex(/^\d{3}$/).optional(), ...numberCommon }).strict(),
    z
      .object({
        provider: z.literal('twilio'),
        number: e164,
        twilioAccountSid: providerId,
        twilioAuthToken: secret.optional(),
        twilioApiKey: secret.optional(),
        twilioApiSecret: secret.optional(),
        smsEnabled: z.boolean().optional(),
        ...numberCommon,
      })
      .strict()
      .refine((b) => !!b.twilioAuthToken !== !!(b.twilioApiKey && b.twilioApiSecret), {
        message: 'give either twilioAuthToken or both twilioApiKey and twilioApiSecret',
        path: ['twilioAuthToken'],
      }),
    z.object({ provider: z.literal('vonage'), number: e164, credentialId: providerId, ...numberCommon }).strict(),
    z.object({ provider: z.literal('telnyx'), number: e164, credentialId: providerId, ...numberCommon }).strict(),
  ])
  .openapi('ProvisionPhoneNumber', {
    description: 'Buy a provider number (`vapi`) or import a carrier number (`twilio`, `vonage`, `telnyx`). Carrier credentials are passed to the provider and never stored or echoed.',
  });

export const PhoneNumber = z
  .object({
    id: z.string().uuid(),
    providerNumberId: z.string().openapi({ description: 'Use as phoneNumberId on outbound calls' }),
    number: z.string().nullable().openapi({ description: 'E.164; null while a provider number is still being activated' }),
    provider: z.enum(NUMBER_PROVIDERS),
    name: z.string().nullable(),
    assistantId: z.string().nullable(),
    providerStatus: z.string().nullable(),
    createdBy: z.string(),
    createdAt: iso,
  })
  .openapi('PhoneNumber');

export const PhoneSettings = z
  .object({
    tenantId: z.string(),
    defaultAssistantId: z.string().nullable(),
    defaultPhoneNumberId: z.string().nullable(),
    hasApiKey: z.boolean().openapi({ description: 'The tenant has connected its own provider key (the key itself is write-only)' }),
    providerKeySource: z
      .enum(['tenant', 'fallback', 'none'])
      .openapi({ description: 'Which key outbound calls would use: the tenant key, the global fallback, or none' }),
    version: z.number().int().openapi({ description: '0 until the settings are first saved' }),
    updatedBy: z.string().nullable(),
    updatedAt: iso.nullable(),
  })
  .openapi('PhoneSettings');

export const PhoneSettingsBody = z
  .object({
    defaultAssistantId: providerId.nullable().optional(),
    defaultPhoneNumberId: providerId.nullable().optional(),
    version: int32().optional().openapi({ description: 'Optimistic lock: the version you read (409 if it moved)' }),
  })
  .strict()
  .openapi('PhoneSettingsUpdate', { description: 'Replaces both defaults; an omitted default is cleared.' });

export const ApiKeyBody = z
  // Sent as `Authorization: Bearer <key>`: a character no HTTP header can carry would make every
  // later provider call fail (502) instead of refusing the key here.
  .object({ apiKey: z.string().trim().min(8).max(500).regex(/^[\x21-\x7E]+$/, 'must be printable ASCII without spaces (it is sent in an HTTP header)') })
  .strict()
  .openapi('PhoneApiKey', { description: "The provider's private API key; stored encrypted, never returned." });
