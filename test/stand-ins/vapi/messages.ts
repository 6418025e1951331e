/**
 * Webhook ("server message") bodies in the provider's real shapes, for API tests.
 * Shapes follow the provider's SDK types (ServerMessageAssistantRequest,
 * ServerMessageStatusUpdate, ServerMessageEndOfCallReport, ServerMessageToolCalls)
 * and the payload examples in its docs, including the older variants still seen.
 */
type JsonMap = Record<string, unknown>;

export interface CallShape {
  /** The provider's call id (our providerCallId). */
  callId: string;
  direction?: 'inbound' | 'outbound';
  status?: string;
  phoneNumberId?: string;
  assistantId?: string;
  /** The other party. */
  customerNumber?: string;
  orgId?: string;
  endedReason?: string;
  /** The assistantOverrides.metadata the call was created with (placement sends platformCallId). */
  metadata?: JsonMap;
}

export function callObject(shape: CallShape): JsonMap {
  const at = new Date().toISOString();
  return {
    id: shape.callId,
    orgId: shape.orgId ?? 'org-stand-in',
    type: shape.direction === 'outbound' ? 'outboundPhoneCall' : 'inboundPhoneCall',
    status: shape.status ?? 'in-progress',
    ...(shape.phoneNumberId ? { phoneNumberId: shape.phoneNumberId } : {}),
    ...(shape.assistantId ? { assistantId: shape.assistantId } : {}),
    ...(shape.customerNumber ? { customer: { number: shape.customerNumber } } : {}),
    ...(shape.endedReason ? { endedReason: shape.endedReason } : {}),
    ...(shape.metadata ? { assistantOverrides: { metadata: shape.metadata } } : {}),
    phoneCallProvider: 'vapi',
    phoneCallTransport: 'pstn',
    createdAt: at,
    updatedAt: at,
  };
}

function phoneNumberObject(id: string | undefined, number: string | undefined): JsonMap | undefined {
  if (!id && !number) return undefined;
  return { ...(id ? { id } : {}), ...(number ? { number } : {}), provider: 'vapi', orgId: 'org-stand-in' };
}

function envelope(message: JsonMap): { message: JsonMap } {
  return { message: { timestamp: Date.now(), ...message } };
}

export interface AssistantRequestShape {
  callId: string;
  /** The number that was dialled (ours). */
  dialledNumber?: string;
  phoneNumberId?: string;
  /** The caller. */
  customerNumber?: string;
}

/** Inbound call on a number without an assistant: the provider asks us which one. */
export function assistantRequest(shape: AssistantRequestShape): { message: JsonMap } {
  const phoneNumber = phoneNumberObject(shape.phoneNumberId, shape.dialledNumber);
  return envelope({
    type: 'assistant-request',
    call: callObject({ ...shape, direction: 'inbound', status: 'ringing' }),
    ...(phoneNumber ? { phoneNumber } : {}),
    ...(shape.customerNumber ? { customer: { number: shape.customerNumber } } : {}),
  });
}

export interface StatusUpdateShape extends CallShape {
  /** scheduled | queued | ringing | in-progress | forwarding | ended | anything else */
  status: string;
  /** Only sent with status "ended". */
  endedReason?: string;
}

export function statusUpdate(shape: StatusUpdateShape): { message: JsonMap } {
  return envelope({
    type: 'status-update',
    status: shape.status,
    ...(shape.endedReason ? { endedReason: shape.endedReason } : {}),
    call: callObject(shape),
    ...(shape.customerNumber ? { customer: { number: shape.customerNumber } } : {}),
  });
}

export interface EndOfCallReportShape extends CallShape {
  endedReason: string;
  transcript?: string;
  recordingUrl?: string;
  summary?: string;
  cost?: number;
  analysis?: JsonMap;
  startedAt?: string;
  endedAt?: string;
  /**
   * Where transcript and recording sit: 'both' (what the provider sends today: the
   * top-level fields are deprecated copies of artifact's), 'artifact' only, or
   * 'top-level' only (older payloads).
   */
  layout?: 'both' | 'artifact' | 'top-level';
}

export function endOfCallReport(shape: EndOfCallReportShape): { message: JsonMap } {
  const layout = shape.layout ?? 'both';
  const media: JsonMap = {
    ...(shape.transcript !== undefined ? { transcript: shape.transcript } : {}),
    ...(shape.recordingUrl !== undefined ? { recordingUrl: shape.recordingUrl } : {}),
  };
  const artifact: JsonMap = {
    messages: [],
    ...(layout === 'top-level' ? {} : media),
    ...(layout !== 'top-level' && shape.recordingUrl !== undefined
      ? { recording: { mono: { combinedUrl: shape.recordingUrl } } }
      : {}),
  };
  const analysis: JsonMap = { ...(shape.summary !== undefined ? { summary: shape.summary } : {}), ...shape.analysis };
  return envelope({
    type: 'end-of-call-report',
    endedReason: shape.endedReason,
    call: callObject({ ...shape, status: 'ended' }),
    artifact,
    analysis,
    ...(layout === 'artifact' ? {} : media),
    ...(layout !== 'artifact' && shape.summary !== undefined ? { summary: shape.summary } : {}),
    ...(shape.cost !== undefined ? { cost: shape.cost } : {}),
    ...(shape.startedAt ? { startedAt: shape.startedAt } : {}),
    ...(shape.endedAt ? { endedAt: shape.endedAt } : {}),
    ...(shape.customerNumber ? { customer: { number: shape.customerNumber } } : {}),
  });
}

export interface ToolCallShape {
  id: string;
  name: string;
  /** An object, or a string sent verbatim (use it for malformed JSON). */
  arguments: JsonMap | string;
}

/**
 * - nested: `{ id, type: 'function', function: { name, arguments: {...} } }` in toolCallList,
 *   repeated in toolWithToolCallList, as current payloads do
 * - nested-json-string: the same with `arguments` as a JSON string (OpenAI style, the SDK type)
 * - flat: `{ id, name, arguments }` (the provider's custom-tools guide)
 * - flat-parameters: `{ id, name, parameters }` (the provider's server-events guide)
 * - legacy-tool-calls: nested entries under the older `toolCalls` field only
 * - tool-with-tool-call-list: only `toolWithToolCallList[].toolCall`
 */
export type ToolCallVariant =
  | 'nested'
  | 'nested-json-string'
  | 'flat'
  | 'flat-parameters'
  | 'legacy-tool-calls'
  | 'tool-with-tool-call-list';

export const TOOL_CALL_VARIANTS: readonly ToolCallVariant[] = [
  'nested',
  'nested-json-string',
  'flat',
  'flat-parameters',
  'legacy-tool-calls',
  'tool-with-tool-call-list',
];

const asJsonString = (args: JsonMap | string) => (typeof args === 'string' ? args : JSON.stringify(args));

function nestedEntry(call: ToolCallShape, stringArguments: boolean): JsonMap {
  const args = stringArguments ? asJsonString(call.arguments) : call.arguments;
  return { id: call.id, type: 'function', function: { name: call.name, arguments: args } };
}

function toolWithToolCall(call: ToolCallShape, toolCall: JsonMap): JsonMap {
  return {
    type: 'function',
    function: { name: call.name, parameters: { type: 'object', properties: {} } },
    messages: [],
    toolCall,
  };
}

export interface ToolCallsShape extends CallShape {
  calls: ToolCallShape[];
  variant?: ToolCallVariant;
}

export function toolCalls(shape: ToolCallsShape): { message: JsonMap } {
  const variant = shape.variant ?? 'nested';
  let lists: JsonMap;
  switch (variant) {
    case 'nested':
    case 'nested-json-string': {
      const entries = shape.calls.map((c) => nestedEntry(c, variant === 'nested-json-string'));
      lists = {
        toolCallList: entries,
        toolWithToolCallList: shape.calls.map((c, i) => toolWithToolCall(c, entries[i] ?? {})),
      };
      break;
    }
    case 'flat':
      lists = { toolCallList: shape.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) };
      break;
    case 'flat-parameters':
      lists = { toolCallList: shape.calls.map((c) => ({ id: c.id, name: c.name, parameters: c.arguments })) };
      break;
    case 'legacy-tool-calls':
      lists = { toolCalls: shape.calls.map((c) => nestedEntry(c, false)) };
      break;
    case 'tool-with-tool-call-list':
      lists = { toolWithToolCallList: shape.calls.map((c) => toolWithToolCall(c, nestedEntry(c, false))) };
      break;
  }
  return envelope({ type: 'tool-calls', call: callObject(shape), ...lists, artifact: { messages: [] } });
}

/** A message type we do not handle (the provider sends many: speech-update, transcript, hang ...). */
export function otherMessage(type = 'speech-update', callId = 'call-other'): { message: JsonMap } {
  return envelope({ type, status: 'started', role: 'assistant', call: callObject({ callId }) });
}
