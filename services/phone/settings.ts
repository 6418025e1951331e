import type { Db } from '../../db/client';
import { getPhoneSettings, insertPhoneSettingsIfAbsent, writePhoneSettings, type PhoneSettingsRow } from '../../db/queries/phone-settings';
import { conflict } from '../../domain/errors';
import type { Settings } from '../../domain/settings';
import { refuseForeignNumber } from './placement';
import { providerKeySource, type ProviderKeySource } from './provider';

export interface PhoneSettingsDeps {
  db: Db;
  settings: Settings;
}

/** The tenant's defaults (null before the first write) and where its provider key comes from; never the key. */
export interface PhoneSettingsState {
  tenantId: string;
  row: PhoneSettingsRow | null;
  providerKeySource: ProviderKeySource;
}

export interface PhoneSettingsChange {
  tenantId: string;
  userId: string;
  defaultAssistantId?: string | null | undefined;
  defaultPhoneNumberId?: string | null | undefined;
  /** Optimistic lock: the version read; 0 means "no settings yet". */
  version?: number | undefined;
}

/** The state with the row just written when there is one, else read. */
async function settingsState(deps: PhoneSettingsDeps, tenantId: string, written?: PhoneSettingsRow): Promise<PhoneSettingsState> {
  const [row, source] = await Promise.all([
    written ?? getPhoneSettings(deps.db, tenantId),
    providerKeySource(deps.db, deps.settings, tenantId),
  ]);
  return { tenantId, row, providerKeySource: source };
}

export async function readPhoneSettings(deps: PhoneSettingsDeps, { tenantId }: { tenantId: string }) {
  return settingsState(deps, tenantId);
}

/**
 * Replaces both defaults (an omitted one is cleared). With `version` the write lands only on that
 * version: 409 `phone-settings-conflict`; 422 `unknown-phone-number` when the number is another tenant's.
 */
export async function savePhoneSettings(deps: PhoneSettingsDeps, change: PhoneSettingsChange): Promise<PhoneSettingsState> {
  const { db } = deps;
  const { tenantId, userId } = change;
  const defaults = {
    defaultAssistantId: change.defaultAssistantId ?? null,
    defaultPhoneNumberId: change.defaultPhoneNumberId ?? null,
  };
  if (defaults.defaultPhoneNumberId) await refuseForeignNumber(db, tenantId, defaults.defaultPhoneNumberId);
  const saved =
    change.version === 0
      ? await insertPhoneSettingsIfAbsent(db, tenantId, defaults, userId)
      : await writePhoneSettings(db, { tenantId, defaults, by: userId, expectedVersion: change.version });
  if (!saved) throw conflict('phone-settings-conflict', 'Phone settings changed since you read them; read them again');
  return settingsState(deps, tenantId, saved);
}
