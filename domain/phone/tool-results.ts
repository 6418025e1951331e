/**
 * The answer to a `tool-calls` webhook: `{ results: [{ toolCallId, name, result | error }] }`.
 * The provider requires `result`/`error` to be single-line strings (line breaks break its
 * parser) and speaks them into an LLM context, so they are flattened and bounded here.
 */
export const MAX_TOOL_RESULT_LENGTH = 1000;
export const TOOL_NOT_CONFIGURED = 'This tool is not configured.';

export type ToolCallResultEntry =
  | { toolCallId: string; name: string; result: string }
  | { toolCallId: string; name: string; error: string };

export interface ToolCallsResponse {
  results: ToolCallResultEntry[];
}

const ELLIPSIS = '…';

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (value instanceof Error) return value.message;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // Cycles or BigInt: a plain rendering beats failing the whole webhook answer.
    return String(value);
  }
}

/** Any value → one trimmed line of at most `maxLength` characters (code points). */
export function toSingleLine(value: unknown, maxLength = MAX_TOOL_RESULT_LENGTH): string {
  // \s covers \r, \n, \t, \v, \f and the Unicode line/paragraph separators.
  const flat = stringify(value).replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  if (chars.length <= maxLength) return flat;
  return chars.slice(0, Math.max(0, maxLength - 1)).join('') + ELLIPSIS;
}

export function toolResult(toolCallId: string, name: string, result: unknown, maxLength?: number): ToolCallResultEntry {
  return { toolCallId, name, result: toSingleLine(result, maxLength) };
}

export function toolError(toolCallId: string, name: string, error: unknown, maxLength?: number): ToolCallResultEntry {
  return { toolCallId, name, error: toSingleLine(error, maxLength) || 'The tool failed.' };
}

export function toolNotConfigured(toolCallId: string, name: string): ToolCallResultEntry {
  return { toolCallId, name, error: TOOL_NOT_CONFIGURED };
}

export function buildToolCallsResponse(entries: readonly ToolCallResultEntry[]): ToolCallsResponse {
  return { results: [...entries] };
}
