import { createRoute, z } from '@hono/zod-openapi';
import {
  addToRoleGroup,
  createRoleGroup,
  listCandidateGroups,
  listRoleGroupMembers,
  removeFromRoleGroup,
} from '../../services/access/groups';
import { asOwnerOfPathTenant } from '../middleware/identity';
import {
  createRouter,
  jsonBody,
  jsonContent,
  noContent,
  problemResponses,
  tenantParam,
  userParam,
} from '../openapi';
import { Group, GroupBody, GroupMember, GROUP_NAME, toIso } from './schemas';

const tags = ['Access: candidate groups'];
const owner = asOwnerOfPathTenant;
const groupParam = z
  .string()
  .regex(GROUP_NAME)
  .openapi({ param: { name: 'g', in: 'path' }, description: 'Group name' });

export function groupRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tenants/{t}/candidate-groups',
      tags,
      summary: "The tenant's role groups (never the ownership group)",
      middleware: owner,
      request: { params: z.object({ t: tenantParam }) },
      responses: { 200: jsonContent(z.array(Group)), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const rows = await listCandidateGroups(c.get('deps').db, { tenantId: c.req.valid('param').t });
      return c.json(rows.map((r) => ({ ...r, id: r.name, createdAt: toIso(r.createdAt) })), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/tenants/{t}/candidate-groups',
      tags,
      summary: 'Create a role group',
      middleware: owner,
      request: { params: z.object({ t: tenantParam }), body: jsonBody(GroupBody) },
      responses: { 201: jsonContent(Group, 'Created'), ...problemResponses(400, 403, 404, 409) },
    }),
    async (c) => {
      const { name, description } = c.req.valid('json');
      const row = await createRoleGroup(c.get('deps').db, {
        tenantId: c.req.valid('param').t,
        name,
        description: description ?? null,
      });
      return c.json({ id: name, name, description: row.description, memberCount: 0, createdAt: toIso(row.createdAt) }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tenants/{t}/candidate-groups/{g}/members',
      tags,
      summary: 'Members of a role group',
      middleware: owner,
      request: { params: z.object({ t: tenantParam, g: groupParam }) },
      responses: { 200: jsonContent(z.array(GroupMember)), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { t, g } = c.req.valid('param');
      const rows = await listRoleGroupMembers(c.get('deps').db, { tenantId: t, name: g });
      return c.json(rows.map((r) => ({ ...r, addedAt: toIso(r.addedAt) })), 200);
    },
  );

  for (const method of ['put', 'delete'] as const) {
    app.openapi(
      createRoute({
        method,
        path: '/api/tenants/{t}/candidate-groups/{g}/members/{u}',
        tags,
        summary: method === 'put' ? 'Add a tenant member to a role group (idempotent)' : 'Remove a user from a role group',
        middleware: owner,
        request: { params: z.object({ t: tenantParam, g: groupParam, u: userParam }) },
        responses: { 204: noContent, ...problemResponses(400, 403, 404, 422, 503) },
      }),
      async (c) => {
        const { t, g, u } = c.req.valid('param');
        const input = { tenantId: t, name: g, userId: u };
        if (method === 'put') await addToRoleGroup(c.get('deps').db, input);
        else await removeFromRoleGroup(c.get('deps').db, input);
        return c.body(null, 204);
      },
    );
  }

  return app;
}
