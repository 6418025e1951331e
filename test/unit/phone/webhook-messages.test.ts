import { describe, expect, it } from 'vitest';
import { normaliseToolArguments, parseServerMessage, type ServerMessage } from '../../../domain/phone/webhook-messages.js';
import {
  assistantRequest,
  endOfCallReport,
  otherMessage,
  statusUpdate,
  TOOL_CALL_VARIANTS,
  toolCalls,
} from '../../stand-ins/vapi/messages.js';

function expectType<T extends ServerMessage['type']>(msg: ServerMessage, type: T): Extract<ServerMessage, { type: T }> {
  expect(msg.type).toBe(type);
  return msg as Extract<ServerMessage, { type: T }>;
}

describe('webhook: assistant-request', () => {
  it('reads the dialled number, its id, the caller and the provider call id', () => {
    const body = assistantRequest({
      callId: 'call-in-1',
      dialledNumber: '+14155550100',
      phoneNumberId: 'pn-1',
      customerNumber: '+14155550199',
    });
    const msg = expectType(parseServerMessage(body), 'assistant-request');
    expect(msg).toMatchObject({
      providerCallId: 'call-in-1',
      dialledNumber: '+14155550100',
      phoneNumberId: 'pn-1',
      customerNumber: '+14155550199',
    });
    expect(msg.raw).toBe(body.message);
  });

  it('falls back to call.phoneNumberId and call.customer when the top-level objects are missing', () => {
    const msg = expectType(
      parseServerMessage({
        message: {
          type: 'assistant-request',
          call: { id: 'c2', phoneNumberId: 'pn-2', customer: { number: '+442071838750' }, phoneNumber: { number: '+442071838751' } },
        },
      }),
      'assistant-request',
    );
    expect(msg).toMatchObject({ providerCallId: 'c2', phoneNumberId: 'pn-2', customerNumber: '+442071838750', dialledNumber: '+442071838751' });
  });

  it('prefers message.phoneNumber over call.phoneNumberId', () => {
    const msg = parseServerMessage({
      message: { type: 'assistant-request', phoneNumber: { id: 'pn-top', number: '+14155550100' }, call: { id: 'c', phoneNumberId: 'pn-call' } },
    });
    expect(msg).toMatchObject({ phoneNumberId: 'pn-top' });
  });

  it('missing numbers read as null, not as an error', () => {
    const msg = expectType(parseServerMessage({ message: { type: 'assistant-request' } }), 'assistant-request');
    expect(msg).toMatchObject({ providerCallId: null, dialledNumber: null, phoneNumberId: null, customerNumber: null });
  });
});

describe('webhook: status-update', () => {
  it.each(['scheduled', 'queued', 'ringing', 'in-progress', 'forwarding', 'ended', 'not-found', 'brand-new-status'])(
    'passes status %s through for mapping',
    (status) => {
      const msg = expectType(parseServerMessage(statusUpdate({ callId: 'c1', status })), 'status-update');
      expect(msg.status).toBe(status);
      expect(msg.providerCallId).toBe('c1');
      expect(msg.endedReason).toBeNull();
    },
  );

  it('carries the endedReason sent with "ended"', () => {
    const msg = expectType(
      parseServerMessage(statusUpdate({ callId: 'c1', status: 'ended', endedReason: 'customer-busy' })),
      'status-update',
    );
    expect(msg.endedReason).toBe('customer-busy');
  });

  it('reads call.endedReason when the top-level one is absent', () => {
    const msg = parseServerMessage({ message: { type: 'status-update', status: 'ended', call: { id: 'c', endedReason: 'voicemail' } } });
    expect(msg).toMatchObject({ type: 'status-update', endedReason: 'voicemail' });
  });

  it("reads our call id from the call's assistantOverrides.metadata, and only a UUID", () => {
    const id = '0b7c2a64-3f1e-4d8a-9a51-6c2f4e8d1a90';
    const ours = parseServerMessage(statusUpdate({ callId: 'c1', status: 'ringing', metadata: { platformCallId: id, caseId: 7 } }));
    expect(ours).toMatchObject({ providerCallId: 'c1', platformCallId: id });
    for (const metadata of [undefined, {}, { platformCallId: 'not-a-uuid' }, { platformCallId: 42 }]) {
      expect(parseServerMessage(statusUpdate({ callId: 'c1', status: 'ringing', metadata })).type).toBe('status-update');
      expect(parseServerMessage(statusUpdate({ callId: 'c1', status: 'ringing', metadata }))).toMatchObject({ platformCallId: null });
    }
    expect(parseServerMessage({ message: { type: 'status-update', status: 'ringing', call: { id: 'c', assistantOverrides: 'x' } } })).toMatchObject({
      platformCallId: null,
    });
  });

  it('a status-update without a status is invalid', () => {
    expect(parseServerMessage({ message: { type: 'status-update', call: { id: 'c' } } })).toEqual({
      type: 'invalid',
      reason: 'status-update without a status',
    });
    expect(parseServerMessage({ message: { type: 'status-update', status: 7 } })).toMatchObject({ type: 'invalid' });
  });
});

describe('webhook: end-of-call-report', () => {
  const full = {
    callId: 'c-eocr',
    endedReason: 'customer-ended-call',
    transcript: 'AI: Hello\nUser: Hi',
    recordingUrl: 'https://storage.example/rec.wav',
    summary: 'Caller said hi.',
    cost: 0.1234,
    analysis: { successEvaluation: 'true', structuredData: { booked: true } },
    startedAt: '2025-01-01T10:00:00.000Z',
    endedAt: '2025-01-01T10:02:00.000Z',
  };

  it.each(['both', 'artifact', 'top-level'] as const)('reads transcript and recording with layout %s', (layout) => {
    const msg = expectType(parseServerMessage(endOfCallReport({ ...full, layout })), 'end-of-call-report');
    expect(msg).toMatchObject({
      providerCallId: 'c-eocr',
      endedReason: 'customer-ended-call',
      transcript: 'AI: Hello\nUser: Hi',
      recordingUrl: 'https://storage.example/rec.wav',
      summary: 'Caller said hi.',
      cost: 0.1234,
      startedAt: '2025-01-01T10:00:00.000Z',
      endedAt: '2025-01-01T10:02:00.000Z',
    });
    expect(msg.analysis).toMatchObject({ successEvaluation: 'true', structuredData: { booked: true } });
  });

  it('finds the recording under artifact.recording.mono.combinedUrl and the summary under analysis', () => {
    const msg = parseServerMessage({
      message: {
        type: 'end-of-call-report',
        endedReason: 'voicemail',
        artifact: { recording: { mono: { combinedUrl: 'https://r/mono.wav' } } },
        analysis: { summary: 'Left a voicemail.' },
      },
    });
    expect(msg).toMatchObject({ recordingUrl: 'https://r/mono.wav', summary: 'Left a voicemail.', transcript: null });
  });

  it('tolerates missing or mistyped optional fields', () => {
    const msg = expectType(
      parseServerMessage({
        message: { type: 'end-of-call-report', cost: 'free', analysis: 'n/a', artifact: 42, transcript: 7, call: 'x' },
      }),
      'end-of-call-report',
    );
    expect(msg).toMatchObject({ endedReason: null, cost: null, analysis: null, transcript: null, recordingUrl: null, providerCallId: null });
  });

  it('reads the endedReason and cost from the call object when only it has them', () => {
    const msg = parseServerMessage({
      message: { type: 'end-of-call-report', call: { id: 'c', endedReason: 'pipeline-error-openai-llm-failed', cost: 0.5 } },
    });
    expect(msg).toMatchObject({ endedReason: 'pipeline-error-openai-llm-failed', cost: 0.5 });
  });
});

describe('webhook: tool-calls, every payload variant', () => {
  const calls = [
    { id: 'call_1', name: 'lookup_contact', arguments: { query: 'Jan' } },
    { id: 'call_2', name: 'book_slot', arguments: { at: '14:00', seats: 2 } },
  ];

  it.each(TOOL_CALL_VARIANTS)('normalises variant %s', (variant) => {
    const msg = expectType(parseServerMessage(toolCalls({ callId: 'c-tools', calls, variant })), 'tool-calls');
    expect(msg.providerCallId).toBe('c-tools');
    expect(msg.invalidEntries).toBe(0);
    expect(msg.toolCalls).toEqual([
      { id: 'call_1', name: 'lookup_contact', arguments: { query: 'Jan' }, argumentsError: null },
      { id: 'call_2', name: 'book_slot', arguments: { at: '14:00', seats: 2 }, argumentsError: null },
    ]);
  });

  it('invalid JSON arguments give {} plus a parse error flag; the call is still answered', () => {
    const msg = expectType(
      parseServerMessage(toolCalls({ callId: 'c', variant: 'nested-json-string', calls: [{ id: 't1', name: 'x', arguments: '{"a":' }] })),
      'tool-calls',
    );
    expect(msg.toolCalls).toEqual([{ id: 't1', name: 'x', arguments: {}, argumentsError: 'arguments are not valid JSON' }]);
  });

  it('drops entries without an id, counts them, and keeps a nameless entry with an empty name', () => {
    const msg = expectType(
      parseServerMessage({
        message: {
          type: 'tool-calls',
          toolCallList: [null, 'x', { name: 'no_id' }, { id: '  ' }, { id: 'ok', function: {} }],
        },
      }),
      'tool-calls',
    );
    expect(msg.invalidEntries).toBe(4);
    expect(msg.toolCalls).toEqual([{ id: 'ok', name: '', arguments: {}, argumentsError: null }]);
  });

  it('answers a repeated id once', () => {
    const msg = expectType(
      parseServerMessage({ message: { type: 'tool-calls', toolCallList: [{ id: 'a', name: 'n' }, { id: 'a', name: 'n' }] } }),
      'tool-calls',
    );
    expect(msg.toolCalls).toHaveLength(1);
  });

  it('an empty list is a valid message with nothing to answer', () => {
    expect(parseServerMessage({ message: { type: 'tool-calls', toolCallList: [] } })).toMatchObject({ type: 'tool-calls', toolCalls: [] });
  });

  it('a tool-calls message without any list is invalid', () => {
    expect(parseServerMessage({ message: { type: 'tool-calls' } })).toEqual({ type: 'invalid', reason: 'tool-calls without toolCallList' });
  });

  it('takes the name from the tool definition when toolWithToolCallList.toolCall has none', () => {
    const msg = parseServerMessage({
      message: {
        type: 'tool-calls',
        toolWithToolCallList: [{ type: 'function', function: { name: 'sendEmail' }, toolCall: { id: 'abc', parameters: { to: 'a@b.c' } } }],
      },
    });
    expect(msg).toMatchObject({ toolCalls: [{ id: 'abc', name: 'sendEmail', arguments: { to: 'a@b.c' }, argumentsError: null }] });
  });
});

describe('webhook: tool-call arguments', () => {
  it.each([
    [{ a: 1 }, { a: 1 }, null],
    ['{"a":1}', { a: 1 }, null],
    [' ', {}, null],
    [undefined, {}, null],
    [null, {}, null],
    ['not json', {}, 'arguments are not valid JSON'],
    ['[1,2]', {}, 'arguments JSON is not an object'],
    ['"text"', {}, 'arguments JSON is not an object'],
    ['null', {}, 'arguments JSON is not an object'],
    [[1, 2], {}, 'arguments are not an object'],
    [12, {}, 'arguments are not an object'],
  ])('%j → %j (%s)', (input, args, error) => {
    expect(normaliseToolArguments(input)).toEqual({ arguments: args, argumentsError: error });
  });
});

describe('webhook: unknown and malformed bodies never throw', () => {
  it('other message types come back as unknown with their type and call id', () => {
    expect(parseServerMessage(otherMessage('speech-update', 'c9'))).toMatchObject({
      type: 'unknown',
      messageType: 'speech-update',
      providerCallId: 'c9',
    });
    expect(parseServerMessage({ message: { type: 'hang' } })).toMatchObject({ type: 'unknown', messageType: 'hang' });
  });

  it('accepts the body as a JSON string', () => {
    expect(parseServerMessage(JSON.stringify(statusUpdate({ callId: 'c', status: 'ringing' })))).toMatchObject({
      type: 'status-update',
      status: 'ringing',
    });
  });

  it.each([
    [undefined, 'body is not a JSON object'],
    [null, 'body is not a JSON object'],
    [42, 'body is not a JSON object'],
    [[], 'body is not a JSON object'],
    ['{not json', 'body is not valid JSON'],
    [{}, 'message:'],
    [{ message: 'status-update' }, 'message:'],
    [{ message: [] }, 'message:'],
    [{ message: {} }, 'message.type:'],
    [{ message: { type: 5 } }, 'message.type:'],
    [{ message: { type: '  ' } }, 'message.type:'],
    [{ type: 'status-update', status: 'ended' }, 'message:'],
  ])('%j is invalid (%s)', (body, reason) => {
    const msg = parseServerMessage(body);
    expect(msg.type).toBe('invalid');
    expect(msg.type === 'invalid' && msg.reason).toContain(reason);
  });

  it('a body whose getters throw is invalid, not an exception', () => {
    const hostile = {
      get message(): unknown {
        throw new Error('boom');
      },
    };
    expect(parseServerMessage(hostile)).toMatchObject({ type: 'invalid' });
  });

  it('prototype-polluting keys are carried as data, not applied', () => {
    const body = JSON.parse('{"message":{"type":"status-update","status":"ringing","__proto__":{"polluted":true}}}');
    expect(parseServerMessage(body)).toMatchObject({ type: 'status-update' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
