import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db, DbOrTx } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { getSubscription } from '../../db/queries/entitlements';
import { findPhoneCallByPlacementKey, insertPhoneCall, lockPhoneCall, updatePhoneCall, type PhoneCallRow } from '../../db/queries/phone';
import { findPhoneNumberByProviderId } from '../../db/queries/phone-numbers';
import { getPhoneSettings } from '../../db/queries/phone-settings';
import { assertSubscribed } from '../../domain/access/capability-access';
import { AppError, badRequest } from '../../domain/errors';
import { PHONE_CAPABILITY } from '../../domain/phone/call-process';
import { isE164 } from '../../domain/phone/e164';
import type { PhoneActionInputs } from '../../domain/phone/workflow-action';
import { VapiError } from '../../integrations/vapi/client';
import type { Settings } from '../../domain/settings';
import { requireTenant } from '../access/tenants';
import { enqueueCallProcess } from './call-events';
import { missingProviderKey, providerClient, resolveProviderKey } from './provider';

export interface PlacementDeps {
  db: Db;
  settings: Settings;
  logger: Logger;
}

/** What every entry point (tenant route, internal route, workflow action) hands to the one operation. */
export interface PlacementRequest extends PhoneActionInputs {
  tenantId: string;
  /** X-User-Id, `system`, or `workflow:<id>`. */
  initiatedBy: string;
  /** Idempotency: a repeated placement with the same key returns the first call, dialling nobody. */
  placementKey?: string;
}

export interface PlacementResult {
  call: PhoneCallRow;
  /** false when the placement key named an earlier call. */
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
    if (earlier) return { call: earlier, created: false };
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
      await enqueueCallProcess(tx, req.tenantId, id);
    });
  } catch (err) {
    // Two concurrent placements with one key: the loser answers with the winner's call.
    if (req.placementKey && isUniqueViolation(err)) {
      const earlier = await findPhoneCallByPlacementKey(db, req.tenantId, req.placementKey);
      if (earlier) return { call: earlier, created: false };
    }
    throw err;
  }
  log.info({ callId: id, initiatedBy: req.initiatedBy, keySource: key.source }, 'outbound call queued');

  const client = providerClient(settings, key.apiKey);
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
      'provider refused or failed the outbound call',
    );
  }
  const call = await db.transaction(async (tx) => {
    const row = (await lockPhoneCall(tx, req.tenantId, id))!;
    const answered = 'providerCallId' in outcome ? outcome.providerCallId : null;
    if (!row.providerCallId) {
      const patch =
        'error' in outcome
          ? { status: 'FAILED' as const, errorMessage: outcome.error, endedAt: new Date() }
          : { status: 'RINGING' as const, providerCallId: outcome.providerCallId };
      return (await updatePhoneCall(tx, row, patch))!;
    }
    // A provider message overtook this answer and joined the call (call-events, by our id): the
    // call exists at the provider and its messages settle it, whatever this answer said.
    if (answered && answered !== row.providerCallId) {
      log.error({ callId: id, recorded: row.providerCallId, answered }, 'provider answered another call id than its messages named');
    }
    return row.status === 'QUEUED' ? (await updatePhoneCall(tx, row, { status: 'RINGING' }))! : row;
  });
  if (call.status === 'RINGING') log.info({ callId: id, providerCallId: call.providerCallId }, 'outbound call accepted by the provider');
  return { call, created: true };
}

/**
 * The internal route's placement: the tenant comes from a header, not from an identity the
 * middleware resolved, so an unknown tenant is 404 `tenant-not-found` before anything else.
 */
export async function placeInternalCall(deps: PlacementDeps, req: PlacementRequest): Promise<PlacementResult> {
  await requireTenant(deps.db, { tenantId: req.tenantId });
  return placeOutboundCall(deps, req);
}
