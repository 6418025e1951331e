import type { Logger } from 'pino';
import type { Db, DbOrTx } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { getPhoneNumber, listPhoneNumbers, markPhoneNumberFailed, registerPhoneNumber, releasePhoneNumber, reservePhoneNumber, type RegisteredNumberRow } from '../../db/queries/phone-numbers';
import { AppError, notFound } from '../../domain/errors';
import type { NumberProvider } from '../../domain/phone/number-providers';
import type { CreatePhoneNumberInput } from '../../integrations/vapi/client';
import type { Settings } from '../../domain/settings';
import { mapProviderError, providerClientFor, VapiError } from './provider';

export interface ProvisionRequest {
  tenantId: string;
  userId: string;
  provider: NumberProvider;
  input: CreatePhoneNumberInput;
  /** The E.164 number of a carrier import; absent when the provider assigns one. */
  number: string | null;
  name: string | null;
  assistantId: string | null;
}

/**
 * A number is billable once the provider created it, so (docs/phone.md "Numbers"): the row is
 * reserved first (whatever the database would refuse fails here, before the provider is asked),
 * then the provider is asked, then what it created is recorded on the row. A provider refusal
 * releases the reservation; a failure to record keeps the row as FAILED with the provider's id
 * and the reason, and is logged: a number the provider created is never lost.
 */
export async function provisionNumber(db: Db, settings: Settings, log: Logger, req: ProvisionRequest): Promise<RegisteredNumberRow> {
  const provider = await providerClientFor(db, settings, req.tenantId);
  const reserved = await reservePhoneNumber(db, {
    tenantId: req.tenantId,
    provider: req.provider,
    number: req.number,
    name: req.name,
    assistantId: req.assistantId,
    createdBy: req.userId,
  });
  let created;
  try {
    created = await provider.createPhoneNumber(req.input);
  } catch (err) {
    await releasePhoneNumber(db, reserved.id);
    if (!(err instanceof VapiError)) throw err;
    log.warn({ providerErrorKind: err.kind, providerStatus: err.status ?? null }, 'number provisioning failed at the provider');
    throw mapProviderError(err);
  }
  try {
    const row = await registerPhoneNumber(db, reserved.id, {
      providerNumberId: created.id,
      number: created.number ?? req.number,
      name: created.name ?? req.name,
      assistantId: created.assistantId ?? req.assistantId,
      providerStatus: created.status,
    });
    if (!row) throw new Error('the reservation is gone');
    log.info({ phoneNumberId: row.id, providerNumberId: row.providerNumberId, provider: row.provider }, 'phone number registered');
    return row;
  } catch (err) {
    const exists = isUniqueViolation(err);
    const reason = exists ? 'the provider number id is registered already' : err instanceof Error ? err.message : String(err);
    log.error({ phoneNumberId: reserved.id, providerNumberId: created.id, reason }, 'a number created at the provider could not be registered; kept as FAILED');
    await markPhoneNumberFailed(db, reserved.id, created.id, reason);
    if (exists) throw new AppError('phone-number-exists', 'This provider number is registered already');
    throw err;
  }
}

/** The tenant's registered numbers, oldest first. */
export async function listNumbers(db: DbOrTx, { tenantId }: { tenantId: string }): Promise<RegisteredNumberRow[]> {
  return listPhoneNumbers(db, tenantId);
}

/** One registered number; 404 `phone-number-not-found`. */
export async function getNumber(db: DbOrTx, { tenantId, id }: { tenantId: string; id: string }): Promise<RegisteredNumberRow> {
  const row = await getPhoneNumber(db, tenantId, id);
  if (!row) throw notFound('Phone number', 'phone-number-not-found');
  return row;
}
