import { z } from 'zod';

/**
 * Parsing of the provider's webhook ("server message") bodies: `{ message: { type, ... } }`.
 * Lenient by design: the provider adds fields often and sends several historical shapes,
 * so unknown fields pass through, odd field types read as absent, and nothing throws.
 * A body we cannot read at all comes back as `{ type: 'invalid', reason }`.
 */

const text = z.string().trim().min(1).optional().catch(undefined);
const finiteNumber = z.number().optional().catch(undefined);
const list = z.array(z.unknown()).optional().catch(undefined);

const party = z.looseObject({ id: text, number: text }).optional().catch(undefined);

/** Our own call id, which placement sends along in the call's assistantOverrides.metadata. */
const platformCallId = z.uuid().optional().catch(undefined);
const overridesSchema = z
  .looseObject({ metadata: z.looseObject({ platformCallId }).optional().catch(undefined) })
  .optional()
  .catch(undefined);

const callSchema = z
  .looseObject({
    id: text,
    phoneNumberId: text,
    customer: party,
    phoneNumber: party,
    endedReason: text,
    cost: finiteNumber,
    assistantOverrides: overridesSchema,
  })
  .optional()
  .catch(undefined);

const artifactSchema = z
  .looseObject({
    transcript: text,
    recordingUrl: text,
    recording: z
      .looseObject({ mono: z.looseObject({ combinedUrl: text }).optional().catch(undefined) })
      .optional()
      .catch(undefined),
  })
  .optional()
  .catch(undefined);

const messageSchema = z.looseObject({
  type: z.string().trim().min(1),
  timestamp: z.union([z.number(), z.string()]).optional().catch(undefined),
  call: callSchema,
  phoneNumber: party,
  customer: party,
  status: text,
  endedReason: text,
  artifact: artifactSchema,
  transcript: text,
  recordingUrl: text,
  summary: text,
  cost: finiteNumber,
  startedAt: text,
  endedAt: text,
  toolCallList: list,
  toolCalls: list,
  toolWithToolCallList: list,
});

const envelopeSchema = z.object({ message: messageSchema });

type Message = z.infer<typeof messageSchema>;
type JsonMap = Record<string, unknown>;

/** Fields every recognised message may carry; any of them may be null. */
export interface MessageContext {
  /** The provider's call id: the join key to our PhoneCall row. */
  providerCallId: string | null;
  /**
   * Our call id as placement sent it in the call's metadata: joins a message that overtakes
   * the placement (before the provider's id is recorded) to its outbound call.
   */
  platformCallId: string | null;
  /** Provider id of the number involved (the dialled number for inbound calls). */
  phoneNumberId: string | null;
  /** E.164 digits of our number involved (the dialled number for inbound calls). */
  dialledNumber: string | null;
  /** The other party: the caller on inbound calls, the callee on outbound ones. */
  customerNumber: string | null;
  timestamp: number | string | null;
  /** The message object as received, for storing the raw payload. */
  raw: JsonMap;
}

export interface NormalisedToolCall {
  id: string;
  name: string;
  arguments: JsonMap;
  /** Set when the provider sent arguments we could not read; `arguments` is then {}. */
  argumentsError: string | null;
}

/** What an end-of-call-report says about the call's end. */
export interface EndOfCallReportFields {
  endedReason: string | null;
  transcript: string | null;
  recordingUrl: string | null;
  summary: string | null;
  cost: number | null;
  analysis: JsonMap | null;
  startedAt: string | null;
  endedAt: string | null;
}

export type ServerMessage =
  | ({ type: 'assistant-request' } & MessageContext)
  | ({ type: 'status-update'; status: string; endedReason: string | null } & MessageContext)
  | ({ type: 'end-of-call-report' } & EndOfCallReportFields & MessageContext)
  | ({
      type: 'tool-calls';
      toolCalls: NormalisedToolCall[];
      /** Entries dropped because they had no usable id (they cannot be answered). */
      invalidEntries: number;
    } & MessageContext)
  | ({ type: 'unknown'; messageType: string } & MessageContext)
  | { type: 'invalid'; reason: string };

function isPlainObject(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'body does not match { message: { type } }';
  const path = issue.path.length > 0 ? issue.path.join('.') : 'body';
  return `${path}: ${issue.message}`;
}

function contextOf(message: Message, raw: JsonMap): MessageContext {
  return {
    providerCallId: message.call?.id ?? null,
    platformCallId: message.call?.assistantOverrides?.metadata?.platformCallId ?? null,
    phoneNumberId: message.phoneNumber?.id ?? message.call?.phoneNumberId ?? null,
    dialledNumber: message.phoneNumber?.number ?? message.call?.phoneNumber?.number ?? null,
    customerNumber: message.customer?.number ?? message.call?.customer?.number ?? null,
    timestamp: message.timestamp ?? null,
    raw,
  };
}

/** Tool-call arguments arrive as an object or as a JSON string (OpenAI style). */
export function normaliseToolArguments(value: unknown): Pick<NormalisedToolCall, 'arguments' | 'argumentsError'> {
  if (value === undefined || value === null) return { arguments: {}, argumentsError: null };
  if (isPlainObject(value)) return { arguments: value, argumentsError: null };
  if (typeof value === 'string') {
    if (value.trim() === '') return { arguments: {}, argumentsError: null };
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return { arguments: {}, argumentsError: 'arguments are not valid JSON' };
    }
    return isPlainObject(parsed)
      ? { arguments: parsed, argumentsError: null }
      : { arguments: {}, argumentsError: 'arguments JSON is not an object' };
  }
  return { arguments: {}, argumentsError: 'arguments are not an object' };
}

const nonEmpty = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * One entry of `toolCallList`/`toolCalls`, in any of the shapes seen in the provider's
 * docs and payloads: nested `{ id, type: 'function', function: { name, arguments } }`,
 * flat `{ id, name, arguments }`, and `parameters` in place of `arguments`.
 */
function normaliseEntry(entry: unknown, fallbackName: string | null = null): NormalisedToolCall | null {
  if (!isPlainObject(entry)) return null;
  const id = nonEmpty(entry.id);
  if (id === null) return null;
  const fn = isPlainObject(entry.function) ? entry.function : {};
  const name = nonEmpty(fn.name) ?? nonEmpty(entry.name) ?? fallbackName ?? '';
  const rawArguments = fn.arguments ?? fn.parameters ?? entry.arguments ?? entry.parameters;
  return { id, name, ...normaliseToolArguments(rawArguments) };
}

/** `toolWithToolCallList` items: `{ type, function: { name }, name?, toolCall: {...} }`. */
function normaliseToolWithToolCall(item: unknown): NormalisedToolCall | null {
  if (!isPlainObject(item)) return null;
  const tool = isPlainObject(item.function) ? item.function : {};
  return normaliseEntry(item.toolCall, nonEmpty(tool.name) ?? nonEmpty(item.name));
}

function toolCallsOf(message: Message): { toolCalls: NormalisedToolCall[]; invalidEntries: number } | null {
  // toolCallList is the current field; toolCalls is its older alias; toolWithToolCallList
  // repeats the same calls with the tool definitions, so it is only a last resort.
  const entries = message.toolCallList ?? message.toolCalls;
  const normalised = entries
    ? entries.map((entry) => normaliseEntry(entry))
    : message.toolWithToolCallList?.map(normaliseToolWithToolCall);
  if (!normalised) return null;
  const seen = new Set<string>();
  const toolCalls: NormalisedToolCall[] = [];
  let invalidEntries = 0;
  for (const call of normalised) {
    if (call === null) invalidEntries += 1;
    // A redelivered id within one message would be answered twice; keep the first.
    else if (!seen.has(call.id)) {
      seen.add(call.id);
      toolCalls.push(call);
    }
  }
  return { toolCalls, invalidEntries };
}

function parseMessage(body: unknown): ServerMessage {
  let input = body;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      return { type: 'invalid', reason: 'body is not valid JSON' };
    }
  }
  if (!isPlainObject(input)) return { type: 'invalid', reason: 'body is not a JSON object' };
  const parsed = envelopeSchema.safeParse(input);
  if (!parsed.success) return { type: 'invalid', reason: describeIssue(parsed.error) };

  const message = parsed.data.message;
  const raw = input.message as JsonMap;
  const context = contextOf(message, raw);

  switch (message.type) {
    case 'assistant-request':
      return { type: 'assistant-request', ...context };
    case 'status-update': {
      if (message.status === undefined) return { type: 'invalid', reason: 'status-update without a status' };
      return {
        type: 'status-update',
        status: message.status,
        endedReason: message.endedReason ?? message.call?.endedReason ?? null,
        ...context,
      };
    }
    case 'end-of-call-report': {
      const analysis = isPlainObject(raw.analysis) ? raw.analysis : null;
      return {
        type: 'end-of-call-report',
        endedReason: message.endedReason ?? message.call?.endedReason ?? null,
        transcript: message.transcript ?? message.artifact?.transcript ?? null,
        recordingUrl:
          message.recordingUrl ??
          message.artifact?.recordingUrl ??
          message.artifact?.recording?.mono?.combinedUrl ??
          null,
        summary: message.summary ?? nonEmpty(analysis?.summary) ?? null,
        cost: message.cost ?? message.call?.cost ?? null,
        analysis,
        startedAt: message.startedAt ?? null,
        endedAt: message.endedAt ?? null,
        ...context,
      };
    }
    case 'tool-calls': {
      const calls = toolCallsOf(message);
      if (calls === null) return { type: 'invalid', reason: 'tool-calls without toolCallList' };
      return { type: 'tool-calls', ...calls, ...context };
    }
    default:
      return { type: 'unknown', messageType: message.type, ...context };
  }
}

/** Never throws: odd or hostile input yields `{ type: 'invalid', reason }`. */
export function parseServerMessage(body: unknown): ServerMessage {
  try {
    return parseMessage(body);
  } catch (error) {
    // Exotic input (throwing getters, proxies) must not turn into a 500.
    const name = error instanceof Error ? error.name : 'error';
    return { type: 'invalid', reason: `unreadable body (${name})` };
  }
}
