import type { Logger } from 'pino';
import type { NormalisedToolCall } from '../../domain/phone/webhook-messages';
import {
  toolError,
  toolNotConfigured,
  toolResult,
  type ToolCallResultEntry,
} from '../../domain/phone/tool-results';

/** Who is calling a tool: the tenant comes from the call (or the dialled number), never from headers. */
export interface PhoneToolContext {
  tenantId: string | null;
  callId: string | null;
  providerCallId: string | null;
  toolCallId: string;
  /** Aborted when the answer window closes; a handler still running then is answered as timed out. */
  signal: AbortSignal;
  log: Logger;
}

/** A tool answers a value (rendered to one line) or throws (answered as the tool's error). */
export type PhoneToolHandler = (args: Record<string, unknown>, ctx: PhoneToolContext) => unknown;

/** Tool name → handler. The platform ships none; deployments pass theirs as AppDeps.phoneTools. */
export type PhoneToolRegistry = ReadonlyMap<string, PhoneToolHandler>;

export const EMPTY_TOOL_REGISTRY: PhoneToolRegistry = new Map();
export const TOOL_TIMED_OUT = 'The tool did not answer in time.';

/**
 * Runs every tool call of one `tool-calls` message at once and answers each by its id, in
 * order, within `budgetMs`: a call without a handler is "not configured", unreadable
 * arguments and thrown errors become `error`, and whatever is still running when the window
 * closes is answered as timed out (its signal is aborted).
 */
export async function runToolCalls(
  registry: PhoneToolRegistry,
  calls: readonly NormalisedToolCall[],
  ctx: Omit<PhoneToolContext, 'toolCallId' | 'signal'>,
  budgetMs: number,
): Promise<ToolCallResultEntry[]> {
  const controller = new AbortController();
  const results: Array<ToolCallResultEntry | undefined> = calls.map(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const windowClosed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, budgetMs));
  });
  const runs = calls.map(async (call, i) => {
    if (call.argumentsError) {
      results[i] = toolError(call.id, call.name, `Invalid arguments: ${call.argumentsError}`);
      return;
    }
    const handler = registry.get(call.name);
    if (!handler) {
      results[i] = toolNotConfigured(call.id, call.name);
      return;
    }
    try {
      const value = await handler(call.arguments, { ...ctx, toolCallId: call.id, signal: controller.signal });
      if (!controller.signal.aborted) results[i] = toolResult(call.id, call.name, value);
    } catch (err) {
      ctx.log.warn({ tool: call.name, toolCallId: call.id, err }, 'tool failed');
      if (!controller.signal.aborted) results[i] = toolError(call.id, call.name, err);
    }
  });
  await Promise.race([Promise.all(runs), windowClosed]);
  clearTimeout(timer);
  controller.abort();
  return calls.map((call, i) => {
    const r = results[i];
    if (r) return r;
    ctx.log.warn({ tool: call.name, toolCallId: call.id, budgetMs }, 'tool did not answer within the window');
    return toolError(call.id, call.name, TOOL_TIMED_OUT);
  });
}
