import { createRoute, z } from '@hono/zod-openapi';
import type { CreatePhoneNumberInput } from '../../integrations/vapi/client';
import { getNumber, listNumbers, provisionNumber } from '../../services/phone/numbers';
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
        'The number is reserved first (input the database would refuse fails before the provider is asked), then created at the ' +
        'provider, then recorded; a provider refusal leaves nothing, a number the provider created but that could not be recorded ' +
        'is kept (not served) and logged. Provider errors are named: 422 `provider-rejected` ' +
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
      const row = await provisionNumber(db, settings, c.get('log'), {
        tenantId: caller.tenantId,
        userId: caller.userId,
        provider: body.provider,
        input: body as CreatePhoneNumberInput,
        number: 'number' in body ? body.number : null,
        name: body.name ?? null,
        assistantId: body.assistantId ?? null,
      });
      return c.json(numberView(row), 201);
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
      const rows = await listNumbers(c.get('deps').db, { tenantId: c.get('caller').tenantId });
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
      const row = await getNumber(c.get('deps').db, { tenantId: c.get('caller').tenantId, id: c.req.valid('param').id });
      return c.json(numberView(row), 200);
    },
  );

  return app;
}
