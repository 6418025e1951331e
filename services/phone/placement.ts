import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import { enqueueOutbox } from '../../db/outbox';
import { getSubscription } from '../../db/queries/entitlements';
import {
  findPhoneCallByPlacementKey,
  findPhoneNumberByProviderId,
  getPhoneSettings,
  insertPhoneCall,
  lockPhoneCall,
  updatePhoneCall,
  type PhoneCallRow,
} from '../../db/queries/phone';
import { AppError, badRequest, forbidden } from '../../domain/errors';
import { PHONE_CALL_WORKFLOW, PHONE_CAPABILITY, type PhoneCallProcessInput } from '../../domain/phone/call-process';
import { isE164 } from '../../domain/phone/e164';
import { createVapiClient, VapiError } from '../../integrations/vapi/client';
import type { Settings } from '../../workers/settings';
import { missingProviderKey, resolveProviderKey } from './provider';

type JsonMap = Record<string, unknown>;

export interface PlacementDeps {
  db: Db;
  settings: Settings;
  logger: Logger;
}

/** What every entry point (tenant route, internal route, workflow action) hands to the one operation. */
export interface PlacementRequest {
  tenantId: string;
  /** X-User-Id, `system`, or `workflow:<id>`. */
  initiatedBy: string;
  customerNumber: string;
  customerName?: string;
  assistantId?: string;
  phoneNumberId?: string;
  variableValues?: JsonMap;
  metadata?: JsonMap;
  /** Idempotency: a repeated placement with the same key returns the first call, dialling nobody. */
  placementKey?: string;
}

export interface PlacementResult {
  call: PhoneCallRow;
  /** false when the placement key named an earlier call. */
  created: boolean;
}

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (err: unknown, constraint: string) => {
  const e = (err as { cause?: unknown })?.cause ?? err;
  return (e as { code?: string })?.code === UNIQUE_VIOLATION && (e as { constraint_name?: string }).constraint_name === constraint;
};

/**
 * Places one outbound call (spec, Endpoints rule 2). Caller mistakes are 4xx before anything is
 * saved; then the QUEUED row and its outbox row commit together; then the provider is asked,
 * and the row becomes RINGING, or FAILED with errorMessage: a provider failure never throws.
 */
export async function placeOutboundCall(deps: PlacementDeps, req: PlacementRequest): Promise<PlacementResult> {
  const { db, settings } = deps;
  const log = deps.logger.child({ tenantId: req.tenantId, component: 'phone-placement' });

  if (req.placementKey) {
    const earlier = await findPhoneCallByPlacementKey(db, req.tenantId, req.placementKey);
    if (earlier) return { call: earlier, created: false };
  }
  if (!isE164(req.customerNumber)) {
    throw badRequest('invalid-customer-number', 'customerNumber must be an E.164 number such as +14155550123');
  }
  const subscription = await getSubscription(db, req.tenantId, PHONE_CAPABILITY);
  if (subscription?.status !== 'ACTIVE') {
    throw forbidden('capability-not-subscribed', `Tenant has no ACTIVE subscription to ${PHONE_CAPABILITY}`);
  }
  const defaults = await getPhoneSettings(db, req.tenantId);
  const assistantId = req.assistantId ?? defaults?.defaultAssistantId ?? null;
  if (!assistantId) {
    throw new AppError('assistant-unresolved', 422, 'No assistantId given and the tenant has no default assistant');
  }
  const phoneNumberId = req.phoneNumberId ?? defaults?.defaultPhoneNumberId ?? null;
  if (!phoneNumberId) {
    throw new AppError('phone-number-unresolved', 422, 'No phoneNumberId given and the tenant has no default number');
  }
  const registered = await findPhoneNumberByProviderId(db, phoneNumberId);
  if (registered && registered.tenantId !== req.tenantId) {
    // Another tenant's number behaves as if it did not exist.
    throw new AppError('phone-number-not-found', 422, 'The phone number was not found');
  }
  const key = await resolveProviderKey(db, settings, req.tenantId);
  if (!key) throw missingProviderKey();

  const id = randomUUID();
  try {
    await db.transaction(async (tx) => {
      await insertPhoneCall(tx, {
        id,
        tenantId: req.tenantId,
        direction: 'OUTBOUND',
        status: 'QUEUED',
        phoneNumberId,
        assistantId,
        customerNumber: req.customerNumber,
        customerName: req.customerName ?? null,
        metadata: req.metadata ?? {},
        variableValues: req.variableValues ?? {},
        businessKey: id,
        initiatedBy: req.initiatedBy,
        placementKey: req.placementKey ?? null,
      });
      const args: PhoneCallProcessInput[] = [{ tenantId: req.tenantId, callId: id }];
      await enqueueOutbox(tx, {
        capability: PHONE_CAPABILITY,
        tenantId: req.tenantId,
        businessKey: id,
        workflowType: PHONE_CALL_WORKFLOW,
        args,
      });
    });
  } catch (err) {
    // Two concurrent placements with one key: the loser answers with the winner's call.
    if (req.placementKey && isUniqueViolation(err, 'phone_calls_placement_key_idx')) {
      const earlier = await findPhoneCallByPlacementKey(db, req.tenantId, req.placementKey);
      if (earlier) return { call: earlier, created: false };
    }
    throw err;
  }
  log.info({ callId: id, initiatedBy: req.initiatedBy, keySource: key.source }, 'outbound call queued');

  const client = createVapiClient({
    baseUrl: settings['phone.provider-base-url'],
    apiKey: key.apiKey,
    timeoutMs: settings['phone.provider-timeout-ms'],
  });
  let outcome: { providerCallId: string } | { error: string };
  try {
    const call = await client.createCall({
      phoneNumberId,
      assistantId,
      customer: { number: req.customerNumber, ...(req.customerName ? { name: req.customerName } : {}) },
      assistantOverrides: {
        ...(req.variableValues ? { variableValues: req.variableValues } : {}),
        // Our call id travels with the call, so the provider's dashboard can be searched by it.
        metadata: { ...req.metadata, platformCallId: id },
      },
    });
    outcome = { providerCallId: call.id };
  } catch (err) {
    // VapiError messages are sanitised (no key, no headers); anything else is reduced to its class.
    const message = err instanceof VapiError ? err.message : `Provider call failed (${err instanceof Error ? err.name : 'error'})`;
    outcome = { error: message };
    log.warn(
      { callId: id, providerErrorKind: err instanceof VapiError ? err.kind : 'unexpected', providerStatus: (err as VapiError).status },
      'provider refused or failed the outbound call; call FAILED',
    );
  }
  const call = await db.transaction(async (tx) => {
    const row = (await lockPhoneCall(tx, req.tenantId, id))!;
    const patch =
      'providerCallId' in outcome
        ? { status: 'RINGING' as const, providerCallId: outcome.providerCallId }
        : { status: 'FAILED' as const, errorMessage: outcome.error, endedAt: new Date() };
    return (await updatePhoneCall(tx, row, patch))!;
  });
  if (call.status === 'RINGING') log.info({ callId: id, providerCallId: call.providerCallId }, 'outbound call accepted by the provider');
  return { call, created: true };
}
