import { createRoute } from '@hono/zod-openapi';
import { connectProviderKey, disconnectProviderKey } from '../../services/phone/provider';
import { readPhoneSettings, savePhoneSettings } from '../../services/phone/settings';
import { createRouter, jsonBody, jsonContent, noContent, problemResponses } from '../openapi';
import { reader, writer } from './guards';
import { ApiKeyBody, PhoneSettings, PhoneSettingsBody } from './schemas';
import { settingsView } from './views';

const tags = ['Phone: settings'];

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
    async (c) => c.json(settingsView(await readPhoneSettings(c.get('deps'), { tenantId: c.get('caller').tenantId })), 200),
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
      const { tenantId, userId } = c.get('caller');
      const saved = await savePhoneSettings(c.get('deps'), { ...c.req.valid('json'), tenantId, userId });
      return c.json(settingsView(saved), 200);
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
      const { tenantId, userId } = c.get('caller');
      await connectProviderKey(c.get('deps'), { tenantId, userId, apiKey: c.req.valid('json').apiKey });
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
      const removed = await disconnectProviderKey(c.get('deps').db, { tenantId: c.get('caller').tenantId });
      c.get('log').info({ removed }, 'phone provider key disconnected');
      return c.body(null, 204);
    },
  );

  return app;
}
