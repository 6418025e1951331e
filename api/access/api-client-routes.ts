import { createRoute, z } from '@hono/zod-openapi';
import type { ApiClientRow } from '../../db/queries/api-clients';
import { API_CLIENT_ID } from '../../domain/api-client-credentials';
import { createApiClient, listTenantApiClients, revokeApiClient } from '../../services/access/api-clients';
import { asOwnerOfPathTenant } from '../middleware/identity';
import { createRouter, jsonBody, jsonContent, noContent, problemResponses, tenantParam } from '../openapi';
import { ApiClient, ApiClientBody, ApiClientCreated, toIso, toIsoOrNull } from './schemas';

const tags = ['Access: API clients'];
const owner = asOwnerOfPathTenant;
const clientIdParam = z
  .string()
  .regex(API_CLIENT_ID, 'must be an API client id (ac_ and 20 hex digits)')
  .openapi({ param: { name: 'clientId', in: 'path' }, example: 'ac_0123456789abcdef0123' });

const view = (r: ApiClientRow) => ({
  clientId: r.id,
  tenantId: r.tenantId,
  name: r.name,
  createdBy: r.createdBy,
  createdAt: toIso(r.createdAt),
  revokedBy: r.revokedBy,
  revokedAt: toIsoOrNull(r.revokedAt),
});

/**
 * Tenant API clients: machine principals that call the calendar and SLA routes with HTTP Basic.
 * A client is a tenant member of role `api-client`; owners give it capability grants with the
 * ordinary grant route, using the clientId as the user id.
 */
export function apiClientRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/tenants/{t}/api-clients',
      tags,
      summary: 'Create an API client; the answer carries its secret, shown this once (owner or operator)',
      description:
        'The client becomes a member of role `api-client` with no grants. Grant it capabilities with ' +
        '`PUT /api/tenants/{t}/users/{clientId}/capabilities/{code}`.',
      middleware: owner,
      request: { params: z.object({ t: tenantParam }), body: jsonBody(ApiClientBody) },
      responses: { 201: jsonContent(ApiClientCreated, 'Created'), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { client, secret } = await createApiClient(c.get('deps'), {
        tenantId: c.req.valid('param').t,
        name: c.req.valid('json').name,
        actor: c.get('caller').userId,
      });
      return c.json({ ...view(client), secret }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tenants/{t}/api-clients',
      tags,
      summary: "The tenant's API clients, revoked ones included, without secrets (owner or operator)",
      middleware: owner,
      request: { params: z.object({ t: tenantParam }) },
      responses: { 200: jsonContent(z.array(ApiClient)), ...problemResponses(400, 403, 404) },
    }),
    async (c) => c.json((await listTenantApiClients(c.get('deps').db, { tenantId: c.req.valid('param').t })).map(view), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/tenants/{t}/api-clients/{clientId}',
      tags,
      summary: 'Revoke an API client: its credentials stop working at once, its grants and membership go',
      middleware: owner,
      request: { params: z.object({ t: tenantParam, clientId: clientIdParam }) },
      responses: { 204: noContent, ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { t, clientId } = c.req.valid('param');
      await revokeApiClient(c.get('deps').db, { tenantId: t, clientId, actor: c.get('caller').userId });
      return c.body(null, 204);
    },
  );

  return app;
}
