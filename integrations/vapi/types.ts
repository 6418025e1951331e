import { z } from 'zod';

/**
 * Request and response shapes of the provider's REST API, from its published
 * TypeScript SDK (CreateCallDto, Call, CreatePhoneNumbersRequest and the
 * Create{Vapi,Twilio,Vonage,Telnyx}PhoneNumberDto types). Only what we use is typed;
 * responses are parsed leniently because the provider adds fields all the time.
 */

type JsonMap = Record<string, unknown>;

export interface CreateCallInput {
  /** Provider id of the number the call is placed from. */
  phoneNumberId: string;
  assistantId: string;
  customer: { number: string; name?: string };
  assistantOverrides?: {
    /** Values for `{{name}}` placeholders in the assistant's prompts. */
    variableValues?: JsonMap;
    metadata?: JsonMap;
  };
}

/** Fields common to every provider of POST /phone-number. */
interface PhoneNumberCommon {
  name?: string;
  /** Assistant answering inbound calls; without it the provider sends `assistant-request`. */
  assistantId?: string;
  /** Where the provider sends this number's webhooks (overrides the org-level server). */
  server?: { url: string; timeoutSeconds?: number; headers?: Record<string, string> };
}

/** A number bought from the provider itself; it picks the digits. */
export interface CreateVapiPhoneNumberInput extends PhoneNumberCommon {
  provider: 'vapi';
  numberDesiredAreaCode?: string;
  sipUri?: string;
}

/** Twilio accepts either the account auth token or an API key and secret pair. */
export type TwilioCredentials =
  | { twilioAuthToken: string; twilioApiKey?: undefined; twilioApiSecret?: undefined }
  | { twilioApiKey: string; twilioApiSecret: string; twilioAuthToken?: undefined };

export type CreateTwilioPhoneNumberInput = PhoneNumberCommon & {
  provider: 'twilio';
  /** The E.164 number owned on the Twilio account. */
  number: string;
  twilioAccountSid: string;
  /** When false the provider leaves the number's Twilio messaging webhook alone. */
  smsEnabled?: boolean;
} & TwilioCredentials;

/** Vonage and Telnyx numbers use a carrier credential stored at the provider. */
export interface CreateVonagePhoneNumberInput extends PhoneNumberCommon {
  provider: 'vonage';
  number: string;
  credentialId: string;
}

export interface CreateTelnyxPhoneNumberInput extends PhoneNumberCommon {
  provider: 'telnyx';
  number: string;
  credentialId: string;
}

export type CreatePhoneNumberInput =
  | CreateVapiPhoneNumberInput
  | CreateTwilioPhoneNumberInput
  | CreateVonagePhoneNumberInput
  | CreateTelnyxPhoneNumberInput;

export interface VapiCall {
  id: string;
  /** Provider status: scheduled, queued, ringing, in-progress, forwarding, ended, ... */
  status: string | null;
  type: string | null;
  phoneNumberId: string | null;
  assistantId: string | null;
  customer: { number: string | null; name: string | null } | null;
  endedReason: string | null;
  createdAt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  cost: number | null;
  transcript: string | null;
  recordingUrl: string | null;
  summary: string | null;
  analysis: JsonMap | null;
  /** The whole provider object, for storage or debugging. */
  raw: JsonMap;
}

export interface VapiPhoneNumber {
  id: string;
  /** E.164 digits; may be null for a provider number still being activated. */
  number: string | null;
  provider: string | null;
  name: string | null;
  assistantId: string | null;
  status: string | null;
}

const text = z.string().trim().min(1).optional().catch(undefined);
const num = z.number().optional().catch(undefined);
const map = z.record(z.string(), z.unknown()).optional().catch(undefined);

export const callResponseSchema = z.looseObject({
  id: z.string().min(1),
  status: text,
  type: text,
  phoneNumberId: text,
  assistantId: text,
  customer: z.looseObject({ number: text, name: text }).optional().catch(undefined),
  endedReason: text,
  createdAt: text,
  startedAt: text,
  endedAt: text,
  cost: num,
  // Older responses carry transcript/recordingUrl/summary at the top level,
  // newer ones under artifact and analysis.
  transcript: text,
  recordingUrl: text,
  summary: text,
  artifact: z.looseObject({ transcript: text, recordingUrl: text }).optional().catch(undefined),
  analysis: map,
});

export const phoneNumberResponseSchema = z.looseObject({
  id: z.string().min(1),
  number: text,
  provider: text,
  name: text,
  assistantId: text,
  status: text,
});

export function toVapiCall(parsed: z.infer<typeof callResponseSchema>, raw: JsonMap): VapiCall {
  const analysis = parsed.analysis ?? null;
  const summary = parsed.summary ?? (typeof analysis?.summary === 'string' ? analysis.summary : undefined);
  return {
    id: parsed.id,
    status: parsed.status ?? null,
    type: parsed.type ?? null,
    phoneNumberId: parsed.phoneNumberId ?? null,
    assistantId: parsed.assistantId ?? null,
    customer: parsed.customer
      ? { number: parsed.customer.number ?? null, name: parsed.customer.name ?? null }
      : null,
    endedReason: parsed.endedReason ?? null,
    createdAt: parsed.createdAt ?? null,
    startedAt: parsed.startedAt ?? null,
    endedAt: parsed.endedAt ?? null,
    cost: parsed.cost ?? null,
    transcript: parsed.transcript ?? parsed.artifact?.transcript ?? null,
    recordingUrl: parsed.recordingUrl ?? parsed.artifact?.recordingUrl ?? null,
    summary: summary ?? null,
    analysis,
    raw,
  };
}

export function toVapiPhoneNumber(parsed: z.infer<typeof phoneNumberResponseSchema>): VapiPhoneNumber {
  // No raw copy here: the provider echoes carrier credentials on imported numbers.
  return {
    id: parsed.id,
    number: parsed.number ?? null,
    provider: parsed.provider ?? null,
    name: parsed.name ?? null,
    assistantId: parsed.assistantId ?? null,
    status: parsed.status ?? null,
  };
}
