import { createRoute, z } from '@hono/zod-openapi';
import type { InvitationRow } from '../../db/queries/invitations';
import {
  acceptInvitation,
  createInvitation,
  listTenantInvitations,
  revokeInvitation,
} from '../../services/access/invitations';
import { asOwnerOfPathTenant, userIdentity } from '../middleware/identity';
import {
  createRouter,
  jsonBody,
  jsonContent,
  noContent,
  problemResponses,
  tenantParam,
  uuidParam,
} from '../openapi';
import { Invitation, InvitationBody, InvitationCreated, toIso } from './schemas';

const tags = ['Access: invitations'];
const owner = asOwnerOfPathTenant;

function view(r: InvitationRow, now: Date) {
  const status = r.acceptedAt
    ? 'ACCEPTED'
    : r.revokedAt
      ? 'REVOKED'
      : r.expiresAt <= now
        ? 'EXPIRED'
        : 'PENDING';
  return {
    id: r.id,
    tenantId: r.tenantId,
    email: r.email,
    role: r.role,
    status,
    createdBy: r.createdBy,
    createdAt: toIso(r.createdAt),
    expiresAt: toIso(r.expiresAt),
    acceptedBy: r.acceptedBy,
  } as const;
}

export function invitationRoutes() {
  const app = createRouter();
  const now = (deps: { clock?: () => Date }) => (deps.clock ? deps.clock() : new Date());

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tenants/{t}/invitations',
      tags,
      summary: 'List invitations (tokens are never shown again)',
      middleware: owner,
      request: { params: z.object({ t: tenantParam }) },
      responses: { 200: jsonContent(z.array(Invitation)), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const at = now(c.get('deps'));
      const rows = await listTenantInvitations(c.get('deps').db, { tenantId: c.req.valid('param').t });
      return c.json(rows.map((r) => view(r, at)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/tenants/{t}/invitations',
      tags,
      summary: 'Create an invitation; the token is returned once and works once until it expires',
      middleware: owner,
      request: { params: z.object({ t: tenantParam }), body: jsonBody(InvitationBody) },
      responses: { 201: jsonContent(InvitationCreated, 'Created'), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const at = now(c.get('deps'));
      const { invitation, token } = await createInvitation(c.get('deps'), {
        tenantId: c.req.valid('param').t,
        email: body.email ?? null,
        role: body.role,
        actor: c.get('caller').userId,
        now: at,
      });
      return c.json({ ...view(invitation, at), token }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/tenants/{t}/invitations/{id}',
      tags,
      summary: 'Revoke an unused invitation',
      middleware: owner,
      request: { params: z.object({ t: tenantParam, id: uuidParam() }) },
      responses: { 204: noContent, ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { t, id } = c.req.valid('param');
      await revokeInvitation(c.get('deps').db, { tenantId: t, id });
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/invitations/{token}/accept',
      tags,
      summary: 'Accept an invitation: the caller becomes a member (and owner for a tenant-admin invitation)',
      description: '404 for an unknown or revoked token, 409 once used, 410 once expired. No X-Tenant-Id: the token names the tenant.',
      middleware: [userIdentity],
      request: {
        params: z.object({
          token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'malformed token').openapi({ param: { name: 'token', in: 'path' } }),
        }),
      },
      responses: {
        200: jsonContent(z.object({ tenantId: z.string(), role: z.enum(['member', 'tenant-admin']) })),
        ...problemResponses(400, 404, 409, 410, 503),
      },
    }),
    async (c) => {
      const accepted = await acceptInvitation(c.get('deps').db, {
        token: c.req.valid('param').token,
        userId: c.get('userId'),
        now: now(c.get('deps')),
      });
      return c.json(accepted, 200);
    },
  );

  return app;
}
