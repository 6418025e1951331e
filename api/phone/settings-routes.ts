import { createRoute } from '@hono/zod-openapi';
import type { Db } from '../../db/client';
import { getPhoneSettings, insertPhoneSettingsIfAbsent, savePhoneSettings } from '../../db/queries/phone';
import { deleteTenantSecret, putTenantSecret } from '../../db/queries/secrets';
import { conflict } from '../../domain/errors';
import { refuseForeignNumber } from '../../services/phone/placement';
import { PHONE_API_KEY_SECRET, providerKeySource } from '../../services/phone/provider';
import type { Settings } from '../../domain/settings';
import { createRouter, jsonBody, jsonContent, noContent, problemResponses } from '../openapi';
import { reader, writer } from './guards';
import { ApiKeyBody, PhoneSettings, PhoneSettingsBody } from './schemas';

const tags = ['Phone: settings'];

type SettingsRow = Awaited<ReturnType<typeof getPhoneSettings>>;

/** The settings view: from the row just written when there is one, else read. */
async function settingsView(db: Db, settings: Settings, tenantId: string, written?: NonNullable<SettingsRow>) {
  const [row, source] = await Promise.all([written ?? getPhoneSettings(db, tenantId), providerKeySource(db, settings, tenantId)]);
  return {
    tenantId,
    defaultAssistantId: row?.defaultAssistantId ?? null,
    defaultPhoneNumberId: row?.defaultPhoneNumberId ?? null,
    hasApiKey: source === 'tenant',
    providerKeySource: source,
    version: row?.version ?? 0,
    updatedBy: row?.updatedBy ?? null,
    updatedAt: row ? row.updatedAt.toISOString() : null,
  };
}

export function settingsRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/phone-settings',
      tags,
      summary: 'Defaults plus the hasApiKey flag (the key itself is never returned)',
      middleware: reader,
      responses: { 200: jsonContent(PhoneSettings), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { db, settings } = c.get('deps');
      return c.json(await settingsView(db, settings, c.get('caller').tenantId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/phone-settings',
      tags,
      summary: 'Replace the default assistant and number',
      description:
        'An omitted default is cleared. With `version` the write lands only on that version (409 `phone-settings-conflict`; ' +
        'version 0 means "no settings yet"). ' +
        "422 `unknown-phone-number` when the number is another tenant's.",
      middleware: writer,
      request: { body: jsonBody(PhoneSettingsBody) },
      responses: { 200: jsonContent(PhoneSettings), ...problemResponses(400, 403, 404, 409, 422) },
    }),
    async (c) => {
      const { db, settings } = c.get('deps');
      const { tenantId, userId } = c.get('caller');
      const body = c.req.valid('json');
      const defaults = {
        defaultAssistantId: body.defaultAssistantId ?? null,
        defaultPhoneNumberId: body.defaultPhoneNumberId ?? null,
      };
      if (defaults.defaultPhoneNumberId) await refuseForeignNumber(db, tenantId, defaults.defaultPhoneNumberId);
      const saved =
        body.version === 0
          ? await insertPhoneSettingsIfAbsent(db, tenantId, defaults, userId)
          : await savePhoneSettings(db, tenantId, defaults, userId, body.version);
      if (!saved) throw conflict('phone-settings-conflict', 'Phone settings changed since you read them; read them again');
      return c.json(await settingsView(db, settings, tenantId, saved), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/phone-settings/api-key',
      tags,
      summary: "Connect the tenant's provider key (write-only; stored encrypted)",
      description: '503 `secrets-unavailable` when no master key is configured.',
      middleware: writer,
      request: { body: jsonBody(ApiKeyBody) },
      responses: { 204: noContent, ...problemResponses(400, 403, 404, 503) },
    }),
    async (c) => {
      const { db, settings } = c.get('deps');
      const { tenantId, userId } = c.get('caller');
      const { apiKey } = c.req.valid('json');
      await putTenantSecret(db, settings['secrets.master-key'], tenantId, PHONE_API_KEY_SECRET, apiKey, userId);
      c.get('log').info('phone provider key connected');
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/phone-settings/api-key',
      tags,
      summary: "Disconnect the tenant's provider key (idempotent)",
      middleware: writer,
      responses: { 204: noContent, ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { tenantId } = c.get('caller');
      const removed = await deleteTenantSecret(c.get('deps').db, tenantId, PHONE_API_KEY_SECRET);
      c.get('log').info({ removed }, 'phone provider key disconnected');
      return c.body(null, 204);
    },
  );

  return app;
}
