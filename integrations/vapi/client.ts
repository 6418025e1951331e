import type { z } from 'zod';
import { VapiError, providerErrorDetail, sanitiseDetail } from './errors.js';
import {
  callResponseSchema,
  phoneNumberResponseSchema,
  toVapiCall,
  toVapiPhoneNumber,
  type CreateCallInput,
  type CreatePhoneNumberInput,
  type VapiCall,
  type VapiPhoneNumber,
} from './types.js';

export { VapiError } from './errors.js';
export type { VapiErrorKind } from './errors.js';
export type * from './types.js';

export const DEFAULT_VAPI_BASE_URL = 'https://api.vapi.ai';
export const DEFAULT_VAPI_TIMEOUT_MS = 10_000;

export interface VapiClientOptions {
  baseUrl?: string;
  /** The tenant's private API key; sent as a bearer token, never logged or echoed. */
  apiKey: string;
  /** Bound on each request, connection to last body byte. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

export interface VapiClient {
  /** POST /call: place an outbound phone call. */
  createCall(input: CreateCallInput): Promise<VapiCall>;
  /** GET /call/{id}. */
  getCall(id: string): Promise<VapiCall>;
  /** POST /phone-number: buy a provider number or import a carrier number. */
  createPhoneNumber(input: CreatePhoneNumberInput): Promise<VapiPhoneNumber>;
}

type Method = 'GET' | 'POST';

function errorCode(error: unknown): string | null {
  // undici reports the OS-level reason (ECONNREFUSED, ENOTFOUND, ...) on `cause.code`.
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

function carrierSecrets(input: CreatePhoneNumberInput): string[] {
  if (input.provider !== 'twilio') return [];
  return [input.twilioAuthToken, input.twilioApiKey, input.twilioApiSecret].filter(
    (s): s is string => typeof s === 'string',
  );
}

export function createVapiClient(options: VapiClientOptions): VapiClient {
  const baseUrl = (options.baseUrl ?? DEFAULT_VAPI_BASE_URL).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_VAPI_TIMEOUT_MS;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const apiKey = options.apiKey;

  async function request<S extends z.ZodType>(
    method: Method,
    path: string,
    body: unknown,
    schema: S,
    extraSecrets: readonly string[] = [],
  ): Promise<{ parsed: z.infer<S>; raw: Record<string, unknown> }> {
    const secrets = [apiKey, ...extraSecrets];
    const operation = `Vapi ${method} ${path}`;
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';

    // The abort stops the socket; the race also bounds an injected fetch that ignores signals.
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new VapiError('timeout', `${operation} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
    });

    let status: number;
    let statusText: string;
    let bodyText: string;
    try {
      const response = await Promise.race([
        fetchImpl(`${baseUrl}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: controller.signal,
        }),
        deadline,
      ]);
      status = response.status;
      statusText = response.statusText;
      bodyText = await Promise.race([response.text(), deadline]);
    } catch (error) {
      if (error instanceof VapiError) throw error;
      if (controller.signal.aborted) throw new VapiError('timeout', `${operation} timed out after ${timeoutMs} ms`);
      const code = errorCode(error);
      throw new VapiError('network', `${operation} failed: network error${code ? ` (${code})` : ''}`);
    } finally {
      clearTimeout(timer);
    }

    if (status < 200 || status > 299) {
      const detail = sanitiseDetail(providerErrorDetail(bodyText), secrets);
      const label = sanitiseDetail(`HTTP ${status}${statusText ? ` ${statusText}` : ''}`, secrets);
      throw new VapiError('http', `${operation} failed with ${label}${detail ? `: ${detail}` : ''}`, status);
    }

    let json: unknown;
    try {
      json = JSON.parse(bodyText);
    } catch {
      throw new VapiError('invalid-response', `${operation} answered ${status} with a body that is not JSON`, status);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success || typeof json !== 'object' || json === null) {
      throw new VapiError('invalid-response', `${operation} answered ${status} without the expected fields`, status);
    }
    return { parsed: parsed.data, raw: json as Record<string, unknown> };
  }

  return {
    async createCall(input) {
      const overrides = input.assistantOverrides;
      const hasOverrides = overrides && (overrides.variableValues !== undefined || overrides.metadata !== undefined);
      const body = {
        phoneNumberId: input.phoneNumberId,
        assistantId: input.assistantId,
        customer: input.customer,
        ...(hasOverrides ? { assistantOverrides: overrides } : {}),
      };
      const { parsed, raw } = await request('POST', '/call', body, callResponseSchema);
      return toVapiCall(parsed, raw);
    },

    async getCall(id) {
      const { parsed, raw } = await request('GET', `/call/${encodeURIComponent(id)}`, undefined, callResponseSchema);
      return toVapiCall(parsed, raw);
    },

    async createPhoneNumber(input) {
      const { parsed } = await request('POST', '/phone-number', input, phoneNumberResponseSchema, carrierSecrets(input));
      return toVapiPhoneNumber(parsed);
    },
  };
}
