import { createRoute, z } from '@hono/zod-openapi';
import { isUniqueViolation } from '../../db/errors';
import { getPhoneNumber, insertPhoneNumber, listPhoneNumbers } from '../../db/queries/phone';
import { AppError, notFound } from '../../domain/errors';
import type { CreatePhoneNumberInput } from '../../integrations/vapi/client';
import { mapProviderError, providerClientFor, VapiError } from '../../services/phone/provider';
import { createRouter, jsonBody, jsonContent, problemResponses, uuidParam } from '../openapi';
import { reader, writer } from './guards';
import { PhoneNumber, ProvisionNumberBody } from './schemas';
import { numberView } from './views';

const tags = ['Phone: numbers'];

export function numberRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/phone-numbers',
      tags,
      summary: 'Provision a provider number or import a carrier number (fails hard on provider error)',
      description:
        'Nothing is saved unless the provider created the number. Provider errors are named: 422 `provider-rejected` ' +
        '(the provider refused the input), 422 `provider-key-rejected` (401/403 from the provider), 503 `provider-rate-limited`, ' +
        '502 `provider-error` (5xx), 502 `provider-unreachable`, 502 `provider-invalid-response`, 504 `provider-timeout`; ' +
        '422 `provider-key-missing` when no key resolves.',
      middleware: writer,
      request: { body: jsonBody(ProvisionNumberBody) },
      responses: { 201: jsonContent(PhoneNumber, 'Created at the provider and registered'), ...problemResponses(400, 403, 404, 409, 422, 502, 503, 504) },
    }),
    async (c) => {
      const { db, settings } = c.get('deps');
      const caller = c.get('caller');
      const body = c.req.valid('json');
      const provider = await providerClientFor(db, settings, caller.tenantId);
      let created;
      try {
        created = await provider.createPhoneNumber(body as CreatePhoneNumberInput);
      } catch (err) {
        if (!(err instanceof VapiError)) throw err;
        c.get('log').warn({ providerErrorKind: err.kind, providerStatus: err.status ?? null }, 'number provisioning failed at the provider');
        throw mapProviderError(err);
      }
      try {
        const row = await insertPhoneNumber(db, {
          tenantId: caller.tenantId,
          providerNumberId: created.id,
          number: created.number ?? ('number' in body ? body.number : null),
          provider: body.provider,
          name: created.name ?? body.name ?? null,
          assistantId: created.assistantId ?? body.assistantId ?? null,
          providerStatus: created.status,
          createdBy: caller.userId,
        });
        c.get('log').info({ phoneNumberId: row.id, providerNumberId: row.providerNumberId, provider: row.provider }, 'phone number registered');
        return c.json(numberView(row), 201);
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('phone-number-exists', 'This provider number is registered already');
        throw err;
      }
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/phone-numbers',
      tags,
      summary: "The tenant's numbers, oldest first",
      middleware: reader,
      responses: { 200: jsonContent(z.array(PhoneNumber)), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const rows = await listPhoneNumbers(c.get('deps').db, c.get('caller').tenantId);
      return c.json(rows.map(numberView), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/phone-numbers/{id}',
      tags,
      summary: 'One number',
      middleware: reader,
      request: { params: z.object({ id: uuidParam() }) },
      responses: { 200: jsonContent(PhoneNumber), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const row = await getPhoneNumber(c.get('deps').db, c.get('caller').tenantId, c.req.valid('param').id);
      if (!row) throw notFound('Phone number', 'phone-number-not-found');
      return c.json(numberView(row), 200);
    },
  );

  return app;
}
