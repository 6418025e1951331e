import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { getSubscription } from '../../db/queries/entitlements';
import {
  findPhoneCallByProviderId,
  findPhoneNumberByProviderId,
  findPhoneNumbersByE164,
  getPhoneSettings,
  type PhoneCallRow,
} from '../../db/queries/phone';
import type { Db } from '../../db/client';
import { declineCall, routeToAssistant, type AssistantRequestAnswer } from '../../domain/phone/assistant-request';
import { PHONE_CAPABILITY } from '../../domain/phone/call-process';
import { buildToolCallsResponse, toolError, type ToolCallsResponse } from '../../domain/phone/tool-results';
import type { MessageContext, ServerMessage } from '../../domain/phone/webhook-messages';
import { applyEndOfCallReport, applyStatusUpdate, recordInboundCall, type CallEventResult } from '../../services/phone/call-events';
import { countPhoneWebhookMessage } from '../../integrations/metrics/phone';
import type { AppDeps } from '../deps';
import { EMPTY_TOOL_REGISTRY, runToolCalls } from './tools';

type Message<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;
export type WebhookAnswer = AssistantRequestAnswer | ToolCallsResponse | Record<string, never>;

/** The number that was dialled: by provider number id, else by its digits when exactly one tenant holds them. */
async function resolveDialledNumber(db: Db, m: MessageContext) {
  if (m.phoneNumberId) {
    const byId = await findPhoneNumberByProviderId(db, m.phoneNumberId);
    if (byId) return byId;
  }
  if (m.dialledNumber) {
    const rows = await findPhoneNumbersByE164(db, m.dialledNumber);
    if (rows.length === 1) return rows[0]!;
  }
  return null;
}

async function onAssistantRequest(deps: AppDeps, log: Logger, m: Message<'assistant-request'>): Promise<AssistantRequestAnswer> {
  const number = await resolveDialledNumber(deps.db, m);
  if (!number) {
    log.info({ phoneNumberId: m.phoneNumberId, dialledNumber: m.dialledNumber }, 'assistant-request for an unknown number: declined');
    return declineCall();
  }
  const tenantId = number.tenantId;
  const [subscription, defaults] = await Promise.all([
    getSubscription(deps.db, tenantId, PHONE_CAPABILITY),
    getPhoneSettings(deps.db, tenantId),
  ]);
  const assistantId = number.assistantId ?? defaults?.defaultAssistantId ?? null;
  if (subscription?.status !== 'ACTIVE' || !assistantId) {
    log.info({ tenantId, subscribed: subscription?.status === 'ACTIVE' }, 'assistant-request without an ACTIVE subscription or assistant: declined');
    return declineCall();
  }
  if (!m.providerCallId) {
    log.warn({ tenantId }, 'assistant-request without a call id: routed, but no call can be recorded');
    return routeToAssistant(assistantId);
  }
  const { call, created } = await recordInboundCall(
    deps.db,
    {
      tenantId,
      providerCallId: m.providerCallId,
      phoneNumberId: number.providerNumberId,
      assistantId,
      customerNumber: m.customerNumber,
    },
    randomUUID(),
  );
  log.info({ tenantId, callId: call.id, created }, created ? 'inbound call recorded' : 'assistant-request redelivered');
  // A redelivery answers what the first delivery answered.
  return routeToAssistant(call.assistantId ?? assistantId);
}

/** PhoneCallEnded, when a message ends the call, is an outbox row written with the change (services/phone/call-events.ts). */
function settle(log: Logger, result: CallEventResult, what: string) {
  const call = result.call;
  if (!call) {
    log.debug(`${what}: no change (untracked call, stale or unknown status)`);
    return;
  }
  if (result.changed) log.info({ tenantId: call.tenantId, callId: call.id, status: call.status }, `${what} applied`);
}

async function onToolCalls(deps: AppDeps, log: Logger, m: Message<'tool-calls'>, deadline: number): Promise<ToolCallsResponse> {
  let call: PhoneCallRow | null = null;
  let tenantId: string | null = null;
  try {
    call = m.providerCallId ? await findPhoneCallByProviderId(deps.db, m.providerCallId) : null;
    tenantId = call?.tenantId ?? (await resolveDialledNumber(deps.db, m))?.tenantId ?? null;
  } catch (err) {
    // Tools still get their answer window; they see no tenant.
    log.error({ err }, 'tool-calls: tenant lookup failed');
  }
  if (m.invalidEntries > 0) log.warn({ invalidEntries: m.invalidEntries }, 'tool-calls entries without an id cannot be answered');
  const results = await runToolCalls(
    deps.phoneTools ?? EMPTY_TOOL_REGISTRY,
    m.toolCalls,
    { tenantId, callId: call?.id ?? null, providerCallId: m.providerCallId, log: log.child({ tenantId }) },
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
        return await onAssistantRequest(deps, mlog, m);
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
          const r = await applyEndOfCallReport(deps.db, { ...m, providerCallId: m.providerCallId });
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
