import { createRoute, z } from '@hono/zod-openapi';
import { grantCapability, listUserGrants, revokeGrant } from '../../services/access/grants';
import {
  enableSubscription,
  listTenantSubscriptions,
  removeSubscription,
  suspendSubscription,
  type TenantSubscription,
} from '../../services/access/subscriptions';
import { asMember, asOwnerOfPathTenant } from '../middleware/identity';
import {
  codeParam,
  createRouter,
  jsonBody,
  jsonContent,
  noContent,
  problemResponses,
  tenantParam,
  userParam,
} from '../openapi';
import { Grant, GrantBody, Level, Subscription, toIso, toIsoOrNull } from './schemas';

const tags = ['Access: subscriptions and grants'];
const member = asMember;
const owner = asOwnerOfPathTenant;
const tc = z.object({ t: tenantParam, code: codeParam });
const tuc = z.object({ t: tenantParam, u: userParam, code: codeParam });

const subView = (tenantId: string, r: TenantSubscription) => ({
  tenantId,
  capabilityCode: r.capabilityCode,
  capabilityName: r.capabilityName,
  route: r.route,
  icon: r.icon,
  tier: r.tier,
  status: r.status,
  updatedBy: r.updatedBy,
  updatedAt: toIso(r.updatedAt),
});

export function entitlementRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/my-subscriptions',
      tags,
      summary: "The caller's tenant subscriptions",
      middleware: member,
      responses: { 200: jsonContent(z.array(Subscription)), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const t = c.get('caller').tenantId;
      return c.json((await listTenantSubscriptions(c.get('deps').db, { tenantId: t })).map((r) => subView(t, r)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/my-capabilities',
      tags,
      summary: 'Map of capability code to effective level for the caller (rule 1)',
      middleware: member,
      responses: { 200: jsonContent(z.record(z.string(), Level)), ...problemResponses(400, 403, 404) },
    }),
    (c) => {
      // Rule 1: a grant counts only while its subscription is ACTIVE. A loop, not
      // Object.entries/filter/fromEntries: this is the hot read of bench/access.bench.ts.
      const { subscriptions, grants } = c.get('caller').snapshot;
      const levels: typeof grants = {};
      for (const code of Object.keys(grants)) if (subscriptions[code] === 'ACTIVE') levels[code] = grants[code]!;
      return c.json(levels, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tenants/{t}/capabilities',
      tags,
      summary: "List the tenant's subscriptions (owner or operator)",
      middleware: owner,
      request: { params: z.object({ t: tenantParam }) },
      responses: { 200: jsonContent(z.array(Subscription)), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const t = c.req.valid('param').t;
      return c.json((await listTenantSubscriptions(c.get('deps').db, { tenantId: t })).map((r) => subView(t, r)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/tenants/{t}/capabilities/{code}',
      tags,
      summary: 'Enable (subscribe) a capability: none or SUSPENDED → ACTIVE; retired capabilities refused',
      middleware: owner,
      request: { params: tc },
      responses: { 200: jsonContent(Subscription), ...problemResponses(400, 403, 404, 409) },
    }),
    async (c) => {
      const { t, code } = c.req.valid('param');
      const row = await enableSubscription(c.get('deps').db, { tenantId: t, code, actor: c.get('caller').userId });
      return c.json(subView(t, row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/tenants/{t}/capabilities/{code}',
      tags,
      summary: 'Suspend (ACTIVE → SUSPENDED), or with ?hard=true remove the subscription entirely',
      middleware: owner,
      request: {
        params: tc,
        query: z.object({
          hard: z
            .enum(['true', 'false'])
            .default('false')
            .openapi({ description: '`true` removes the subscription row; grants stay but give no access.' }),
        }),
      },
      responses: { 204: noContent, ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { t, code } = c.req.valid('param');
      const input = { tenantId: t, code, actor: c.get('caller').userId };
      if (c.req.valid('query').hard === 'true') await removeSubscription(c.get('deps').db, input);
      else await suspendSubscription(c.get('deps').db, input);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tenants/{t}/users/{u}/capabilities',
      tags,
      summary: "List a user's grants with their effective level (owner or operator)",
      middleware: owner,
      request: { params: z.object({ t: tenantParam, u: userParam }) },
      responses: { 200: jsonContent(z.array(Grant)), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { t, u } = c.req.valid('param');
      const { userName, grants } = await listUserGrants(c.get('deps').db, { tenantId: t, userId: u });
      return c.json(
        grants.map((r) => ({
          tenantId: t,
          userId: u,
          userName,
          capabilityCode: r.capabilityCode,
          capabilityName: r.capabilityName,
          level: r.level,
          effectiveLevel: r.subscription === 'ACTIVE' ? r.level : null,
          grantedBy: r.grantedBy,
          grantedAt: toIso(r.grantedAt),
          expiresAt: toIsoOrNull(r.expiresAt),
        })),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/tenants/{t}/users/{u}/capabilities/{code}',
      tags,
      summary: 'Set a grant; 409 when the tenant is not subscribed (owner or operator)',
      description:
        'With `expiresAt` (in the future, else 400) the grant is revoked by a durable timer at that instant (audit reason `expired`); ' +
        'a new or removed end reschedules it, and a PUT without `expiresAt` leaves the grant without an end.',
      middleware: owner,
      request: { params: tuc, body: jsonBody(GrantBody) },
      responses: { 200: jsonContent(Grant), ...problemResponses(400, 403, 404, 409, 422, 503) },
    }),
    async (c) => {
      const { t, u, code } = c.req.valid('param');
      const actor = c.get('caller').userId;
      const { level, expiresAt } = c.req.valid('json');
      const deps = c.get('deps');
      const { grant: row, capability, userName } = await grantCapability(deps.db, {
        tenantId: t,
        userId: u,
        code,
        level,
        actor,
        expiresAt: expiresAt ? new Date(expiresAt) : null,
        now: deps.clock?.(),
      });
      return c.json(
        {
          tenantId: t,
          userId: u,
          userName,
          capabilityCode: code,
          capabilityName: capability.name,
          level: row.level,
          effectiveLevel: row.level,
          grantedBy: row.grantedBy,
          grantedAt: toIso(row.grantedAt),
          expiresAt: toIsoOrNull(row.expiresAt),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/tenants/{t}/users/{u}/capabilities/{code}',
      tags,
      summary: 'Revoke a grant (owner or operator)',
      middleware: owner,
      request: { params: tuc },
      responses: { 204: noContent, ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { t, u, code } = c.req.valid('param');
      await revokeGrant(c.get('deps').db, { tenantId: t, userId: u, code, actor: c.get('caller').userId });
      return c.body(null, 204);
    },
  );

  return app;
}
