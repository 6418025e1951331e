import type { Logger } from 'pino';
import { declineCall, type AssistantRequestAnswer } from '../../domain/phone/assistant-request';
import { buildToolCallsResponse, toolError, type ToolCallsResponse } from '../../domain/phone/tool-results';
import type { ServerMessage } from '../../domain/phone/webhook-messages';
import { applyStatusUpdate, type CallEventResult } from '../../services/phone/call-events';
import { addCalleeToDoNotCall, settleEndOfCallReport } from '../../services/phone/do-not-call';
import { answerAssistantRequest, findToolCallOwner } from '../../services/phone/message-routing';
import { countPhoneWebhookMessage } from '../../integrations/metrics/phone';
import type { AppDeps } from '../deps';
import { EMPTY_TOOL_REGISTRY, runToolCalls, type PhoneToolHandler, type PhoneToolRegistry } from './tools';

type Message<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;
export type WebhookAnswer = AssistantRequestAnswer | ToolCallsResponse | Record<string, never>;

/** PhoneCallEnded, when a message ends the call, is an outbox row written with the change (services/phone/call-events.ts). */
function settle(log: Logger, result: CallEventResult, what: string) {
  const call = result.call;
  if (!call) {
    log.debug(`${what}: no change (untracked call, stale or unknown status)`);
    return;
  }
  if (result.changed) log.info({ tenantId: call.tenantId, callId: call.id, status: call.status }, `${what} applied`);
}

/** The deployment's tools plus the built-in do-not-call tool (setting phone.do-not-call-tool; a deployment's tool of that name wins). */
function toolRegistry(deps: AppDeps): PhoneToolRegistry {
  const own = deps.phoneTools ?? EMPTY_TOOL_REGISTRY;
  const name = deps.settings['phone.do-not-call-tool'];
  if (!name || own.has(name)) return own;
  const addCaller: PhoneToolHandler = async (_args, ctx) => {
    if (!ctx.tenantId || !ctx.callId) throw new Error('This call is not known here.');
    const added = await addCalleeToDoNotCall(deps.db, { tenantId: ctx.tenantId, callId: ctx.callId, source: 'assistant-tool' });
    if (!added) throw new Error('This call has no number to add.');
    ctx.log.info({ callId: ctx.callId, added: added.created }, 'assistant tool: caller on the do-not-call list');
    return 'The number is on the do-not-call list. It will not be called again.';
  };
  return new Map([...own, [name, addCaller]]);
}

async function onToolCalls(deps: AppDeps, log: Logger, m: Message<'tool-calls'>, deadline: number): Promise<ToolCallsResponse> {
  let owner: { callId: string | null; tenantId: string | null } = { callId: null, tenantId: null };
  try {
    owner = await findToolCallOwner(deps.db, m);
  } catch (err) {
    // Tools still get their answer window; they see no tenant.
    log.error({ err }, 'tool-calls: tenant lookup failed');
  }
  if (m.invalidEntries > 0) log.warn({ invalidEntries: m.invalidEntries }, 'tool-calls entries without an id cannot be answered');
  const { tenantId, callId } = owner;
  const results = await runToolCalls(
    toolRegistry(deps),
    m.toolCalls,
    { tenantId, callId, providerCallId: m.providerCallId, log: log.child({ tenantId }) },
    deadline - Date.now(),
  );
  return buildToolCallsResponse(results);
}

/**
 * Handles one parsed webhook message. Never throws (the webhook always answers 200): a
 * failure is logged and answered with the type's safe answer (a declined call, tool errors,
 * or an empty acknowledgement).
 */
export async function handleServerMessage(
  deps: AppDeps,
  log: Logger,
  m: ServerMessage,
  deadline: number,
): Promise<WebhookAnswer> {
  const mlog = log.child({ messageType: m.type, providerCallId: 'providerCallId' in m ? m.providerCallId : null });
  let outcome: 'handled' | 'failed' = 'handled';
  try {
    switch (m.type) {
      case 'assistant-request':
        return await answerAssistantRequest({ db: deps.db, logger: mlog }, m);
      case 'tool-calls':
        return await onToolCalls(deps, mlog, m, deadline);
      case 'status-update':
        if (m.providerCallId) {
          const r = await applyStatusUpdate(deps.db, {
            providerCallId: m.providerCallId,
            platformCallId: m.platformCallId,
            status: m.status,
            endedReason: m.endedReason,
          });
          settle(mlog, r, `status-update ${m.status}`);
        }
        return {};
      case 'end-of-call-report':
        if (m.providerCallId) {
          const r = await settleEndOfCallReport({ db: deps.db, settings: deps.settings, log: mlog }, { ...m, providerCallId: m.providerCallId });
          settle(mlog, r, 'end-of-call-report');
        }
        return {};
      case 'unknown':
        mlog.debug({ type: m.messageType }, 'webhook message type not handled');
        return {};
      case 'invalid':
        mlog.warn({ reason: m.reason }, 'unreadable webhook body');
        return {};
    }
  } catch (err) {
    outcome = 'failed';
    mlog.error({ err }, 'webhook handling failed; acknowledged with 200');
    if (m.type === 'assistant-request') return declineCall();
    if (m.type === 'tool-calls') {
      return buildToolCallsResponse(m.toolCalls.map((t) => toolError(t.id, t.name, 'The tool failed.')));
    }
    return {};
  } finally {
    countPhoneWebhookMessage(m.type, outcome);
  }
}
