import { createRoute, z } from '@hono/zod-openapi';
import { insertAudit } from '../../db/queries/access-audit';
import { getCapability } from '../../db/queries/catalog';
import {
  deleteSubscription,
  getSubscription,
  listGrants,
  listSubscriptions,
  upsertSubscription,
} from '../../db/queries/entitlements';
import { userNames } from '../../db/queries/membership';
import { conflict, notFound } from '../../domain/errors';
import { grantCapability, revokeGrant } from '../../services/access/grants';
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
import { Grant, GrantBody, Level, Subscription, toIso } from './schemas';

const tags = ['Access: subscriptions and grants'];
const member = asMember;
const owner = asOwnerOfPathTenant;
const tc = z.object({ t: tenantParam, code: codeParam });
const tuc = z.object({ t: tenantParam, u: userParam, code: codeParam });

type SubRow = Awaited<ReturnType<typeof listSubscriptions>>[number];
const subView = (tenantId: string, r: SubRow) => ({
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
      return c.json((await listSubscriptions(c.get('deps').db, t)).map((r) => subView(t, r)), 200);
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
    async (c) => {
      // Rule 1: a grant counts only while its subscription is ACTIVE.
      const { subscriptions, grants } = c.get('caller').snapshot;
      const levels = Object.entries(grants).filter(([code]) => subscriptions[code] === 'ACTIVE');
      return c.json(Object.fromEntries(levels), 200);
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
      return c.json((await listSubscriptions(c.get('deps').db, t)).map((r) => subView(t, r)), 200);
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
      const db = c.get('deps').db;
      const actor = c.get('caller').userId;
      const capability = await getCapability(db, code);
      if (!capability) throw notFound(`Capability ${code}`, 'capability-not-found');
      if (capability.status === 'RETIRED') {
        throw conflict('capability-retired', `Capability ${code} is retired; it cannot be subscribed`);
      }
      const row = await db.transaction(async (tx) => {
        const subscription = await upsertSubscription(tx, t, code, 'ACTIVE', actor);
        await insertAudit(tx, { tenantId: t, actor, action: 'subscription.enable', capabilityCode: code });
        return subscription;
      });
      // The catalog row is already in hand: no second read of the tenant's subscriptions.
      const view = {
        ...row,
        capabilityName: capability.name,
        route: capability.route,
        icon: capability.icon,
        tier: capability.tier,
        capabilityStatus: capability.status,
      };
      return c.json(subView(t, view), 200);
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
      const hard = c.req.valid('query').hard === 'true';
      const db = c.get('deps').db;
      const actor = c.get('caller').userId;
      await db.transaction(async (tx) => {
        if (hard) {
          if (!(await deleteSubscription(tx, t, code))) throw notFound('Subscription', 'subscription-not-found');
        } else {
          if (!(await getSubscription(tx, t, code))) throw notFound('Subscription', 'subscription-not-found');
          await upsertSubscription(tx, t, code, 'SUSPENDED', actor);
        }
        const action = hard ? 'subscription.remove' : 'subscription.suspend';
        await insertAudit(tx, { tenantId: t, actor, action, capabilityCode: code });
      });
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
      const db = c.get('deps').db;
      const rows = await listGrants(db, t, u);
      const names = await userNames(db, [u]);
      return c.json(
        rows.map((r) => ({
          tenantId: t,
          userId: u,
          userName: names.get(u) ?? null,
          capabilityCode: r.capabilityCode,
          capabilityName: r.capabilityName,
          level: r.level,
          effectiveLevel: r.subscription === 'ACTIVE' ? r.level : null,
          grantedBy: r.grantedBy,
          grantedAt: toIso(r.grantedAt),
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
      middleware: owner,
      request: { params: tuc, body: jsonBody(GrantBody) },
      responses: { 200: jsonContent(Grant), ...problemResponses(400, 403, 404, 409, 422, 503) },
    }),
    async (c) => {
      const { t, u, code } = c.req.valid('param');
      const db = c.get('deps').db;
      const actor = c.get('caller').userId;
      const level = c.req.valid('json').level;
      const { grant: row, capability } = await grantCapability(db, { tenantId: t, userId: u, code, level, actor });
      const names = await userNames(db, [u]);
      return c.json(
        {
          tenantId: t,
          userId: u,
          userName: names.get(u) ?? null,
          capabilityCode: code,
          capabilityName: capability.name,
          level: row.level,
          effectiveLevel: row.level,
          grantedBy: row.grantedBy,
          grantedAt: toIso(row.grantedAt),
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
      await revokeGrant(c.get('deps').db, t, u, code, c.get('caller').userId);
      return c.body(null, 204);
    },
  );

  return app;
}
