import { createRoute, z } from '@hono/zod-openapi';
import type { CapabilityRow } from '../../db/queries/catalog';
import {
  createCatalogEntry,
  getCatalogEntry,
  listCatalog,
  putCatalogEntry,
  retireCatalogEntry,
} from '../../services/access/catalog';
import { userIdentity } from '../middleware/identity';
import { operatorOnly } from '../middleware/operator';
import { codeParam, createRouter, jsonBody, jsonContent, problemResponses } from '../openapi';
import { Capability, CapabilityBody, CapabilityCreateBody } from './schemas';

const tags = ['Access: capability catalog'];
const view = (r: CapabilityRow) => ({
  code: r.code,
  name: r.name,
  route: r.route,
  icon: r.icon,
  status: r.status,
  tier: r.tier,
});

export function catalogRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/capabilities',
      tags,
      summary: 'List the global capability catalog',
      middleware: [userIdentity],
      responses: { 200: jsonContent(z.array(Capability)), ...problemResponses(400) },
    }),
    async (c) => c.json((await listCatalog(c.get('deps').db)).map(view), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/capabilities/{code}',
      tags,
      summary: 'Get one catalog entry by code',
      middleware: [userIdentity],
      request: { params: z.object({ code: codeParam }) },
      responses: { 200: jsonContent(Capability), ...problemResponses(400, 404) },
    }),
    async (c) => c.json(view(await getCatalogEntry(c.get('deps').db, { code: c.req.valid('param').code })), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/capabilities',
      tags,
      summary: 'Create a catalog entry (operators)',
      middleware: [userIdentity, operatorOnly],
      request: { body: jsonBody(CapabilityCreateBody) },
      responses: { 201: jsonContent(Capability, 'Created'), ...problemResponses(400, 403, 409) },
    }),
    async (c) => c.json(view(await createCatalogEntry(c.get('deps').db, c.req.valid('json'))), 201),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/capabilities/{code}',
      tags,
      summary: 'Create or replace a catalog entry (operators)',
      middleware: [userIdentity, operatorOnly],
      request: { params: z.object({ code: codeParam }), body: jsonBody(CapabilityBody) },
      responses: {
        200: jsonContent(Capability, 'Replaced'),
        201: jsonContent(Capability, 'Created'),
        ...problemResponses(400, 403),
      },
    }),
    async (c) => {
      const { row, inserted } = await putCatalogEntry(c.get('deps').db, {
        ...c.req.valid('json'),
        code: c.req.valid('param').code,
      });
      return inserted ? c.json(view(row), 201) : c.json(view(row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/capabilities/{code}',
      tags,
      summary: 'Soft-retire a catalog entry (operators); subscriptions stay, new ones are refused',
      middleware: [userIdentity, operatorOnly],
      request: { params: z.object({ code: codeParam }) },
      responses: { 200: jsonContent(Capability, 'Retired'), ...problemResponses(400, 403, 404) },
    }),
    async (c) => c.json(view(await retireCatalogEntry(c.get('deps').db, { code: c.req.valid('param').code })), 200),
  );

  return app;
}
