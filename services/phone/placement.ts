import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db, DbOrTx } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { getSubscription } from '../../db/queries/entitlements';
import { findPhoneCallByPlacementKey, insertPhoneCall, type PhoneCallRow } from '../../db/queries/phone';
import { findPhoneNumberByProviderId } from '../../db/queries/phone-numbers';
import { getPhoneSettings } from '../../db/queries/phone-settings';
import { assertSubscribed } from '../../domain/access/capability-access';
import { AppError, badRequest } from '../../domain/errors';
import { PHONE_CAPABILITY } from '../../domain/phone/call-process';
import { isE164 } from '../../domain/phone/e164';
import type { RedialPolicy } from '../../domain/phone/redial';
import type { PhoneActionInputs } from '../../domain/phone/workflow-action';
import type { Settings } from '../../domain/settings';
import { requireTenant } from '../access/tenants';
import { enqueueCallProcess } from './call-events';
import { resolveCallingRules } from './calling-policies';
import { nextCallingOpening } from './calling-window';
import { dialQueuedCall } from './dial';
import { isOnDoNotCall, onDoNotCall } from './do-not-call';
import { missingProviderKey, resolveProviderKey } from './provider';

export interface PlacementDeps {
  db: Db;
  settings: Settings;
  logger: Logger;
}

/** What every entry point (tenant route, internal route, workflow action) hands to the one operation. */
export interface PlacementRequest extends PhoneActionInputs {
  /** Overrides the assistant's redial policy. */
  redial?: RedialPolicy | undefined;
  tenantId: string;
  /** X-User-Id, `system`, or `workflow:<id>`. */
  initiatedBy: string;
  /** Idempotency: a repeated placement with the same key returns the first call, dialling nobody. */
  placementKey?: string;
}

export interface PlacementResult {
  call: PhoneCallRow;
  /** false when the placement key named an earlier call. A created call is SCHEDULED, RINGING or FAILED. */
  created: boolean;
}

/** A number registered to another tenant behaves as if it did not exist (numbers not registered here pass). */
export async function refuseForeignNumber(db: DbOrTx, tenantId: string, providerNumberId: string) {
  const registered = await findPhoneNumberByProviderId(db, providerNumberId);
  if (registered && registered.tenantId !== tenantId) {
    throw new AppError('unknown-phone-number', 'The phone number was not found');
  }
}

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
    if (earlier) return answerEarlier(earlier);
  }
  if (!isE164(req.customerNumber)) {
    throw badRequest('invalid-customer-number', 'customerNumber must be an E.164 number such as +14155550123');
  }
  const [subscription, defaults] = await Promise.all([
    getSubscription(db, req.tenantId, PHONE_CAPABILITY),
    getPhoneSettings(db, req.tenantId),
  ]);
  // Layer 1 only: workflows and internal callers hold no grants; tenant routes checked layer 2 already.
  assertSubscribed({ subscriptions: { [PHONE_CAPABILITY]: subscription?.status } }, PHONE_CAPABILITY);
  const assistantId = req.assistantId ?? defaults?.defaultAssistantId ?? null;
  if (!assistantId) {
    throw new AppError('assistant-unresolved', 'No assistantId given and the tenant has no default assistant');
  }
  const phoneNumberId = req.phoneNumberId ?? defaults?.defaultPhoneNumberId ?? null;
  if (!phoneNumberId) {
    throw new AppError('phone-number-unresolved', 'No phoneNumberId given and the tenant has no default number');
  }
  await refuseForeignNumber(db, req.tenantId, phoneNumberId);
  const key = await resolveProviderKey(db, settings, req.tenantId);
  if (!key) throw missingProviderKey();

  const rules = await resolveCallingRules(db, { tenantId: req.tenantId, assistantId, phoneNumberId, redial: req.redial });
  const id = randomUUID();
  const onList = await isOnDoNotCall(db, { tenantId: req.tenantId, customerNumber: req.customerNumber });
  // Outside the calling window the call waits, SCHEDULED, for the opening the engine names.
  const opensAt = onList || !rules.callingCalendarKey
    ? null
    : await nextCallingOpening(db, { tenantId: req.tenantId, callingCalendarKey: rules.callingCalendarKey, calleeLocationCode: req.calleeLocationCode, at: new Date() });
  const status = onList ? 'REFUSED' : opensAt ? 'SCHEDULED' : 'QUEUED';
  let queued: PhoneCallRow;
  try {
    queued = await db.transaction(async (tx) => {
      const row = await insertPhoneCall(tx, {
        id,
        tenantId: req.tenantId,
        direction: 'OUTBOUND',
        status,
        phoneNumberId,
        assistantId,
        customerNumber: req.customerNumber,
        customerName: req.customerName ?? null,
        metadata: req.metadata ?? {},
        variableValues: req.variableValues ?? {},
        businessKey: id,
        initiatedBy: req.initiatedBy,
        placementKey: req.placementKey ?? null,
        callingCalendarKey: rules.callingCalendarKey,
        calleeLocationCode: rules.callingCalendarKey ? (req.calleeLocationCode ?? null) : null,
        redial: rules.redial,
        scheduledFor: opensAt,
        // A refused call has no process: it is final as it is written.
        ...(onList ? { errorMessage: 'The customer number is on the do-not-call list', endedAt: new Date(), processStatus: 'CLOSED' as const } : {}),
      });
      if (!onList) await enqueueCallProcess(tx, req.tenantId, id);
      return row;
    });
  } catch (err) {
    // Two concurrent placements with one key: the loser answers with the winner's call.
    if (req.placementKey && isUniqueViolation(err)) {
      const earlier = await findPhoneCallByPlacementKey(db, req.tenantId, req.placementKey);
      if (earlier) return answerEarlier(earlier);
    }
    throw err;
  }
  if (onList) {
    log.info({ callId: id, initiatedBy: req.initiatedBy }, 'outbound call refused: number on the do-not-call list');
    throw onDoNotCall(id);
  }
  if (status === 'SCHEDULED') {
    log.info({ callId: id, scheduledFor: opensAt, initiatedBy: req.initiatedBy }, 'outbound call scheduled for its calling window');
    return { call: queued, created: true };
  }
  log.info({ callId: id, initiatedBy: req.initiatedBy, keySource: key.source }, 'outbound call queued');
  const call = await dialQueuedCall({ db, settings, log }, queued, key.apiKey);
  return { call, created: true };
}

/** A repeated placement answers like the first: the call, or the first's refusal. */
function answerEarlier(earlier: PhoneCallRow): PlacementResult {
  if (earlier.status === 'REFUSED') throw onDoNotCall(earlier.id);
  return { call: earlier, created: false };
}

/**
 * The internal route's placement: the tenant comes from a header, not from an identity the
 * middleware resolved, so an unknown tenant is 404 `tenant-not-found` before anything else.
 */
export async function placeInternalCall(deps: PlacementDeps, req: PlacementRequest): Promise<PlacementResult> {
  await requireTenant(deps.db, { tenantId: req.tenantId });
  return placeOutboundCall(deps, req);
}
