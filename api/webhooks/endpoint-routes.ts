import { createRoute, z } from '@hono/zod-openapi';
import {
  changeWebhookEndpoint,
  createWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpointPage,
  removeWebhookEndpoint,
} from '../../services/webhooks/endpoints';
import { rotateEndpointSecret } from '../../services/webhooks/endpoint-secrets';
import { ownerOrOperator, tenantIdentity, userIdentity } from '../middleware/identity';
import { createRouter, jsonBody, jsonContent, noContent, problemResponses, uuidParam } from '../openapi';
import { EndpointBody, EndpointCreated, EndpointPage, EndpointPatch, endpointView, PAGE_SIZE_CAP, PageQuery, SecretRotated, WebhookEndpoint } from './schemas';

const tags = ['Webhooks'];
/** Tenant administration's rule: an owner of the X-Tenant-Id tenant or a platform operator. */
export const asWebhookAdmin = [userIdentity, tenantIdentity, ownerOrOperator];
const BASE = '/api/webhook-endpoints';
const idParams = z.object({ id: uuidParam() });

/** A tenant's webhook endpoints (docs/webhooks.md "Endpoints"). */
export function endpointRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: BASE,
      tags,
      summary: 'Create an endpoint; the answer carries its signing secret, shown this once (owner or operator)',
      middleware: asWebhookAdmin,
      request: { body: jsonBody(EndpointBody) },
      responses: { 201: jsonContent(EndpointCreated, 'Created'), ...problemResponses(400, 403, 404, 422, 503) },
    }),
    async (c) => {
      const caller = c.get('caller');
      const { endpoint, secret } = await createWebhookEndpoint(c.get('deps'), { tenantId: caller.tenantId, userId: caller.userId, ...c.req.valid('json') });
      return c.json({ ...endpointView(endpoint), secret }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: BASE,
      tags,
      summary: `The tenant's endpoints, newest first (keyset-paged; page size capped at ${PAGE_SIZE_CAP}), without secrets`,
      middleware: asWebhookAdmin,
      request: { query: PageQuery },
      responses: { 200: jsonContent(EndpointPage), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const page = await listWebhookEndpointPage(c.get('deps').db, { tenantId: c.get('caller').tenantId, limit: Math.min(q.limit, PAGE_SIZE_CAP), cursor: q.cursor });
      return c.json({ items: page.items.map(endpointView), limit: page.limit, nextCursor: page.nextCursor }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: `${BASE}/{id}`,
      tags,
      summary: 'One endpoint, without its secret; `disabledReason` says why the platform disabled it',
      middleware: asWebhookAdmin,
      request: { params: idParams },
      responses: { 200: jsonContent(WebhookEndpoint), ...problemResponses(400, 403, 404) },
    }),
    async (c) => c.json(endpointView(await getWebhookEndpoint(c.get('deps').db, { tenantId: c.get('caller').tenantId, id: c.req.valid('param').id })), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: `${BASE}/{id}`,
      tags,
      summary: 'Change the URL, description, event types or enabled flag of an endpoint',
      middleware: asWebhookAdmin,
      request: { params: idParams, body: jsonBody(EndpointPatch) },
      responses: { 200: jsonContent(WebhookEndpoint), ...problemResponses(400, 403, 404, 422) },
    }),
    async (c) => {
      const row = await changeWebhookEndpoint(c.get('deps'), { tenantId: c.get('caller').tenantId, id: c.req.valid('param').id, patch: c.req.valid('json') });
      return c.json(endpointView(row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: `${BASE}/{id}`,
      tags,
      summary: 'Delete an endpoint with its secrets and delivery log; deliveries waiting to retry stop',
      middleware: asWebhookAdmin,
      request: { params: idParams },
      responses: { 204: noContent, ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      await removeWebhookEndpoint(c.get('deps'), { tenantId: c.get('caller').tenantId, id: c.req.valid('param').id });
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${BASE}/{id}/rotate-secret`,
      tags,
      summary: 'A new signing secret, shown this once; the previous one keeps signing beside it for `webhooks.rotation-overlap-hours`',
      middleware: asWebhookAdmin,
      request: { params: idParams },
      responses: { 200: jsonContent(SecretRotated), ...problemResponses(400, 403, 404, 503) },
    }),
    async (c) => {
      const caller = c.get('caller');
      const { endpoint, secret } = await rotateEndpointSecret(c.get('deps'), { tenantId: caller.tenantId, id: c.req.valid('param').id, userId: caller.userId });
      return c.json({ secret, endpoint: endpointView(endpoint) }, 200);
    },
  );

  return app;
}
