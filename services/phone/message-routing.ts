// Which tenant, call and assistant a provider message belongs to: the provider names numbers and
// calls, never tenants.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db, DbOrTx } from '../../db/client';
import { getSubscription } from '../../db/queries/entitlements';
import { findPhoneCallByProviderId } from '../../db/queries/phone';
import { findPhoneNumberByProviderId, findPhoneNumbersByE164 } from '../../db/queries/phone-numbers';
import { getPhoneSettings } from '../../db/queries/phone-settings';
import { declineCall, routeToAssistant, type AssistantRequestAnswer } from '../../domain/phone/assistant-request';
import { PHONE_CAPABILITY } from '../../domain/phone/call-process';
import type { MessageContext } from '../../domain/phone/webhook-messages';
import { recordInboundCall } from './call-events';

type DialledNumber = Pick<MessageContext, 'phoneNumberId' | 'dialledNumber'>;

/** The number that was dialled: by provider number id, else by its digits when exactly one tenant holds them. */
async function resolveDialledNumber(db: DbOrTx, m: DialledNumber) {
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

export interface AssistantRequestDeps {
  db: Db;
  /** The message's logger: every decision is logged with its reason. */
  logger: Logger;
}

/**
 * assistant-request: routes an inbound call to the number's assistant (else the tenant's default)
 * and records it, once per provider call id; declines an unknown number, a tenant without an
 * ACTIVE subscription, or one without an assistant.
 */
export async function answerAssistantRequest(
  deps: AssistantRequestDeps,
  m: DialledNumber & Pick<MessageContext, 'providerCallId' | 'customerNumber'>,
): Promise<AssistantRequestAnswer> {
  const { db, logger: log } = deps;
  const number = await resolveDialledNumber(db, m);
  if (!number) {
    log.info({ phoneNumberId: m.phoneNumberId, dialledNumber: m.dialledNumber }, 'assistant-request for an unknown number: declined');
    return declineCall();
  }
  const tenantId = number.tenantId;
  const [subscription, defaults] = await Promise.all([
    getSubscription(db, tenantId, PHONE_CAPABILITY),
    getPhoneSettings(db, tenantId),
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
    db,
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

/** tool-calls: the call a message names and its tenant (the call's, else the dialled number's); null where unknown. */
export async function findToolCallOwner(
  db: DbOrTx,
  m: DialledNumber & Pick<MessageContext, 'providerCallId'>,
): Promise<{ callId: string | null; tenantId: string | null }> {
  const call = m.providerCallId ? await findPhoneCallByProviderId(db, m.providerCallId) : null;
  const tenantId = call?.tenantId ?? (await resolveDialledNumber(db, m))?.tenantId ?? null;
  return { callId: call?.id ?? null, tenantId };
}
