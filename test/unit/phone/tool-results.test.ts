import { describe, expect, it } from 'vitest';
import {
  buildToolCallsResponse,
  MAX_TOOL_RESULT_LENGTH,
  TOOL_NOT_CONFIGURED,
  toolError,
  toolNotConfigured,
  toolResult,
  toSingleLine,
} from '../../../domain/phone/tool-results.js';
import { declineCall, routeToAssistant, UNKNOWN_NUMBER_SENTENCE } from '../../../domain/phone/assistant-request.js';

describe('tool-calls answer: single-line, bounded result strings', () => {
  it('collapses every kind of line break and whitespace run into one space', () => {
    expect(toSingleLine('Slots:\n- 2pm\r\n- 3pm\t(today)\u2028done\u2029 ')).toBe('Slots: - 2pm - 3pm (today) done');
  });

  it('serialises objects and arrays as one-line JSON', () => {
    expect(toSingleLine({ status: 'sent', lines: ['a', 'b'] })).toBe('{"status":"sent","lines":["a","b"]}');
    expect(toSingleLine({ note: 'multi\nline' })).toBe('{"note":"multi\\nline"}');
  });

  it('renders numbers, booleans, null, undefined and errors', () => {
    expect(toSingleLine(42)).toBe('42');
    expect(toSingleLine(true)).toBe('true');
    expect(toSingleLine(null)).toBe('');
    expect(toSingleLine(undefined)).toBe('');
    expect(toSingleLine(new Error('boom\nagain'))).toBe('boom again');
  });

  it('survives values JSON cannot encode', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toSingleLine(cyclic)).toBe('[object Object]');
    expect(toSingleLine(10n)).toBe('10');
  });

  it(`bounds the length at ${MAX_TOOL_RESULT_LENGTH} characters with an ellipsis`, () => {
    const long = toSingleLine('x'.repeat(5000));
    expect(Array.from(long)).toHaveLength(MAX_TOOL_RESULT_LENGTH);
    expect(long.endsWith('…')).toBe(true);
    expect(toSingleLine('abcdef', 4)).toBe('abc…');
    expect(toSingleLine('abcd', 4)).toBe('abcd');
  });

  it('never splits a surrogate pair when truncating', () => {
    const out = toSingleLine('😀'.repeat(10), 5);
    expect(Array.from(out)).toEqual(['😀', '😀', '😀', '😀', '…']);
  });
});

describe('tool-calls answer: results envelope', () => {
  it('builds { results: [...] } with toolCallId, name and result or error', () => {
    const response = buildToolCallsResponse([
      toolResult('call_1', 'lookup', { found: true }),
      toolError('call_2', 'book', new Error('slot taken\nsorry')),
      toolNotConfigured('call_3', 'unknown_tool'),
    ]);
    expect(response).toEqual({
      results: [
        { toolCallId: 'call_1', name: 'lookup', result: '{"found":true}' },
        { toolCallId: 'call_2', name: 'book', error: 'slot taken sorry' },
        { toolCallId: 'call_3', name: 'unknown_tool', error: TOOL_NOT_CONFIGURED },
      ],
    });
    for (const entry of response.results) {
      const text = 'result' in entry ? entry.result : entry.error;
      expect(text).not.toMatch(/[\r\n]/);
    }
  });

  it('an empty error still tells the assistant something', () => {
    expect(toolError('id', 'n', '')).toEqual({ toolCallId: 'id', name: 'n', error: 'The tool failed.' });
  });
});

describe('assistant-request answer', () => {
  it('routes to an assistant or declines with a short spoken sentence', () => {
    expect(routeToAssistant('asst-1')).toEqual({ assistantId: 'asst-1' });
    expect(declineCall()).toEqual({ error: UNKNOWN_NUMBER_SENTENCE });
    expect(UNKNOWN_NUMBER_SENTENCE).not.toMatch(/\n/);
  });
});
