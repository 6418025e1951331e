import { deleteTenantSecret, hasTenantSecret, putTenantSecret, readTenantSecret } from '../../db/queries/secrets';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../domain/errors';
import { createVapiClient, VapiError, type VapiClient } from '../../integrations/vapi/client';
import type { Settings } from '../../domain/settings';

/** Name of the tenant's provider key in the secret store. */
export const PHONE_API_KEY_SECRET = 'phone.provider-api-key';

export type ProviderKeySource = 'tenant' | 'fallback' | 'none';

type ProviderSettings = Pick<
  Settings,
  'secrets.master-key' | 'phone.provider-api-key' | 'phone.provider-base-url' | 'phone.provider-timeout-ms'
>;

/** The tenant's own key, else the global fallback setting, else null. The value never leaves this path. */
export async function resolveProviderKey(db: DbOrTx, settings: ProviderSettings, tenantId: string) {
  let own: string | undefined;
  try {
    own = await readTenantSecret(db, settings['secrets.master-key'], tenantId, PHONE_API_KEY_SECRET);
  } catch (err) {
    if (err instanceof AppError) throw err;
    // A sealed value that does not open (master key rotated, row tampered): say so, without internals.
    throw new AppError('provider-key-unreadable', 'The stored provider key cannot be opened; connect it again');
  }
  if (own) return { apiKey: own, source: 'tenant' as const };
  const fallback = settings['phone.provider-api-key'];
  if (fallback) return { apiKey: fallback, source: 'fallback' as const };
  return null;
}

export async function providerKeySource(db: DbOrTx, settings: ProviderSettings, tenantId: string): Promise<ProviderKeySource> {
  if (await hasTenantSecret(db, tenantId, PHONE_API_KEY_SECRET)) return 'tenant';
  return settings['phone.provider-api-key'] ? 'fallback' : 'none';
}

/** Stores the tenant's own key, sealed; 503 `secrets-unavailable` when no master key is configured. */
export async function connectProviderKey(
  deps: { db: DbOrTx; settings: Pick<Settings, 'secrets.master-key'> },
  { tenantId, userId, apiKey }: { tenantId: string; userId: string; apiKey: string },
) {
  await putTenantSecret(deps.db, deps.settings['secrets.master-key'], tenantId, PHONE_API_KEY_SECRET, apiKey, userId);
}

/** Removes the tenant's own key (idempotent); true when there was one. */
export async function disconnectProviderKey(db: DbOrTx, { tenantId }: { tenantId: string }) {
  return deleteTenantSecret(db, tenantId, PHONE_API_KEY_SECRET);
}

export const missingProviderKey = () =>
  new AppError(
    'provider-key-missing',
    'No provider API key: connect one with POST /api/phone-settings/api-key (no global fallback is configured)',
  );

/** A client speaking with a resolved key. */
export function providerClient(settings: ProviderSettings, apiKey: string): VapiClient {
  return createVapiClient({
    baseUrl: settings['phone.provider-base-url'],
    apiKey,
    timeoutMs: settings['phone.provider-timeout-ms'],
  });
}

/** A client for one tenant; throws 422 provider-key-missing when no key resolves. */
export async function providerClientFor(db: DbOrTx, settings: ProviderSettings, tenantId: string): Promise<VapiClient> {
  const key = await resolveProviderKey(db, settings, tenantId);
  if (!key) throw missingProviderKey();
  return providerClient(settings, key.apiKey);
}

/**
 * Provider failures of synchronous operations (number provisioning), named and mapped:
 * the provider refusing our input or our key is the caller's to fix (422); the provider
 * failing, rate-limiting or not answering is a dependency problem (502/503/504).
 */
export function mapProviderError(err: VapiError): AppError {
  const detail = err.message;
  const extra = { providerStatus: err.status ?? null, providerErrorKind: err.kind };
  if (err.kind === 'timeout') return new AppError('provider-timeout', detail, extra);
  if (err.kind === 'network') return new AppError('provider-unreachable', detail, extra);
  if (err.kind === 'invalid-response') return new AppError('provider-invalid-response', detail, extra);
  const status = err.status ?? 502;
  if (status === 401 || status === 403) return new AppError('provider-key-rejected', detail, extra);
  if (status === 429) return new AppError('provider-rate-limited', detail, extra);
  if (status >= 500) return new AppError('provider-error', detail, extra);
  return new AppError('provider-rejected', detail, extra);
}

export { VapiError };
