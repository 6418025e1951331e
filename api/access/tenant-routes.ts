import { createRoute, z } from '@hono/zod-openapi';
import { listTenantAudit } from '../../services/access/access-audit';
import { addMember, listTenantMembers, removeMember, setRole } from '../../services/access/members';
import { grantOwnership, revokeOwnership } from '../../services/access/ownership';
import { createTenant } from '../../services/access/tenants';
import { asOwnerOfPathTenant, tenantIdentity, userIdentity } from '../middleware/identity';
import {
  createRouter,
  jsonBody,
  jsonContent,
  noContent,
  problemResponses,
  tenantParam,
  userParam,
} from '../openapi';
import { AuditEntry, Member, MyAccess, RoleBody, Tenant, TenantBody, toIso } from './schemas';
import { int32Param, int64Param } from '../vocabulary';

const tags = ['Access: tenants, members and owners'];
const owner = asOwnerOfPathTenant;
const tu = z.object({ t: tenantParam, u: userParam });

export function tenantRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/tenants',
      tags,
      summary: 'Create a tenant; the caller becomes its first owner and member',
      middleware: [userIdentity],
      request: { body: jsonBody(TenantBody) },
      responses: { 201: jsonContent(Tenant, 'Created'), ...problemResponses(400, 409) },
    }),
    async (c) => {
      const { id, name } = c.req.valid('json');
      const row = await createTenant(c.get('deps').db, { id, name, userId: c.get('userId') });
      return c.json({ id: row.id, name: row.name, createdBy: row.createdBy, createdAt: toIso(row.createdAt) }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/my-access',
      tags,
      summary: 'What the access UI may show this caller',
      description:
        'Manage My Access always; Approve Requests, Members, Candidate Groups and Invitations for owners and operators.',
      middleware: [userIdentity, tenantIdentity],
      responses: { 200: jsonContent(MyAccess), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { isOwner, isOperator } = c.get('caller');
      const admin = isOwner || isOperator;
      const sections = admin
        ? (['manage-my-access', 'approve-requests', 'members', 'candidate-groups', 'invitations'] as const)
        : (['manage-my-access'] as const);
      return c.json({ isOwner, isOperator, sections: [...sections] }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tenants/{t}/members',
      tags,
      summary: 'Members with names, role and ownership',
      middleware: owner,
      request: { params: z.object({ t: tenantParam }) },
      responses: { 200: jsonContent(z.array(Member)), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const rows = await listTenantMembers(c.get('deps').db, { tenantId: c.req.valid('param').t });
      return c.json(rows.map((r) => ({ ...r, joinedAt: toIso(r.joinedAt) })), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/tenants/{t}/members/{u}',
      tags,
      summary: 'Add a member (idempotent: 201 when added, 200 when already a member)',
      middleware: owner,
      request: { params: tu },
      responses: { 200: noContent, 201: noContent, ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { t, u } = c.req.valid('param');
      const { created } = await addMember(c.get('deps').db, { tenantId: t, userId: u, actor: c.get('caller').userId });
      return c.body(null, created ? 201 : 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/tenants/{t}/members/{u}',
      tags,
      summary: 'Remove a member: grants revoked, open requests cancelled; 409 for the last owner',
      middleware: owner,
      request: { params: tu },
      responses: { 204: noContent, ...problemResponses(400, 403, 404, 409) },
    }),
    async (c) => {
      const { t, u } = c.req.valid('param');
      await removeMember(c.get('deps').db, { tenantId: t, userId: u, actor: c.get('caller').userId });
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/tenants/{t}/owners/{u}',
      tags,
      summary: 'Grant co-ownership (adds the user as a member and tenant-admin if needed)',
      middleware: owner,
      request: { params: tu },
      responses: { 204: noContent, ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { t, u } = c.req.valid('param');
      await grantOwnership(c.get('deps').db, { tenantId: t, userId: u, actor: c.get('caller').userId });
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/tenants/{t}/owners/{u}',
      tags,
      summary: 'Revoke co-ownership; 409 when it would leave no owner (also under concurrency)',
      middleware: owner,
      request: { params: tu },
      responses: { 204: noContent, ...problemResponses(400, 403, 404, 409) },
    }),
    async (c) => {
      const { t, u } = c.req.valid('param');
      await revokeOwnership(c.get('deps').db, { tenantId: t, userId: u, actor: c.get('caller').userId });
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/tenants/{t}/members/{u}/role',
      tags,
      summary: 'Set the member role; tenant-admin and the owner:<t> binding move together (rule 4)',
      middleware: owner,
      request: { params: tu, body: jsonBody(RoleBody) },
      responses: { 204: noContent, ...problemResponses(400, 403, 404, 409) },
    }),
    async (c) => {
      const { t, u } = c.req.valid('param');
      await setRole(c.get('deps').db, { tenantId: t, userId: u, role: c.req.valid('json').role, actor: c.get('caller').userId });
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tenants/{t}/access-audit',
      tags,
      summary: 'Immutable access audit, newest first; page with `before` (the last id seen)',
      middleware: owner,
      request: {
        params: z.object({ t: tenantParam }),
        query: z.object({
          limit: int32Param({ max: 200 }).default(50),
          before: int64Param().optional(),
        }),
      },
      responses: {
        200: jsonContent(z.object({ items: z.array(AuditEntry), nextBefore: z.number().int().nullable() })),
        ...problemResponses(400, 403, 404),
      },
    }),
    async (c) => {
      const { limit, before } = c.req.valid('query');
      const { entries, nextBefore } = await listTenantAudit(c.get('deps').db, { tenantId: c.req.valid('param').t, limit, before });
      return c.json({ items: entries.map((r) => ({ ...r, at: toIso(r.at) })), nextBefore }, 200);
    },
  );

  return app;
}
