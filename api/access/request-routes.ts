import { createRoute, z } from '@hono/zod-openapi';
import {
  approveAccessRequest,
  cancelAccessRequest,
  denyAccessRequest,
  listAccessRequestsWithNames,
  submitAccessRequest,
  type NamedAccessRequest,
} from '../../services/access/access-requests';
import { parseJsonBody } from '../body';
import { asMember, ownerOrOperator, tenantIdentity, userIdentity } from '../middleware/identity';
import { createRouter, jsonBody, jsonContent, problemResponses, uuidParam } from '../openapi';
import { AccessRequest, AccessRequestBody, AccessRequestStatus, ApproveBody, DenyBody, toIso, toIsoOrNull } from './schemas';

const tags = ['Access: requests'];
const member = asMember;
const decider = [userIdentity, tenantIdentity, ownerOrOperator];
const idParams = z.object({ id: uuidParam() });

const view = (r: NamedAccessRequest) => ({
  id: r.id,
  tenantId: r.tenantId,
  userId: r.userId,
  userName: r.userName,
  capabilityCode: r.capabilityCode,
  capabilityName: r.capabilityName,
  requestedLevel: r.requestedLevel,
  grantedLevel: r.grantedLevel,
  status: r.status,
  note: r.note,
  requestedDurationDays: r.requestedDurationDays,
  decidedBy: r.decidedBy,
  decidedByName: r.decidedByName,
  decisionNote: r.decisionNote,
  createdAt: toIso(r.createdAt),
  decidedAt: toIsoOrNull(r.decidedAt),
});

export function requestRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/access-requests',
      tags,
      summary: 'Request access to a capability',
      description:
        '409 when already granted at (or above) that level or an open request exists (a PENDING request older than `access.request-ttl-days` ' +
        'is EXPIRED first and no longer counts); 422 for an unknown, retired or unsubscribed capability. `durationDays` asks for a grant that ends.',
      middleware: member,
      request: { body: jsonBody(AccessRequestBody) },
      responses: { 201: jsonContent(AccessRequest, 'Created'), ...problemResponses(400, 403, 404, 409, 422) },
    }),
    async (c) => {
      const { tenantId, userId } = c.get('caller');
      const { db, settings } = c.get('deps');
      const row = await submitAccessRequest(db, { ...c.req.valid('json'), tenantId, userId, requestTtlDays: settings['access.request-ttl-days'] });
      return c.json(view(row), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/my-access-requests',
      tags,
      summary: "The caller's requests, any status, newest first",
      middleware: member,
      responses: { 200: jsonContent(z.array(AccessRequest)), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { tenantId, userId } = c.get('caller');
      const { db, settings } = c.get('deps');
      return c.json((await listAccessRequestsWithNames(db, { tenantId, userId, requestTtlDays: settings['access.request-ttl-days'] })).map(view), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/access-requests/{id}/cancel',
      tags,
      summary: 'Cancel your own PENDING request (→ CANCELLED)',
      middleware: member,
      request: { params: idParams },
      responses: { 200: jsonContent(AccessRequest), ...problemResponses(400, 403, 404, 409) },
    }),
    async (c) => {
      const { tenantId, userId } = c.get('caller');
      const { db, settings } = c.get('deps');
      const row = await cancelAccessRequest(db, { tenantId, userId, id: c.req.valid('param').id, requestTtlDays: settings['access.request-ttl-days'] });
      return c.json(view(row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/org/access-requests',
      tags,
      summary: 'Owner queue (owner or operator); status defaults to PENDING',
      middleware: decider,
      request: {
        query: z.object({ status: AccessRequestStatus.default('PENDING') }),
      },
      responses: { 200: jsonContent(z.array(AccessRequest)), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { db, settings } = c.get('deps');
      const rows = await listAccessRequestsWithNames(db, {
        tenantId: c.get('caller').tenantId,
        status: c.req.valid('query').status,
        requestTtlDays: settings['access.request-ttl-days'],
      });
      return c.json(rows.map(view), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/org/access-requests/{id}/approve',
      tags,
      summary: 'Approve; optional `level` overrides the requested level, `expiresAt` sets when the grant ends (same path as a direct grant)',
      description:
        "Self-approval is refused (403 `self-approval`); 409 when not PENDING (also EXPIRED) or the tenant is not subscribed. Without `expiresAt` the request's `durationDays` (from now) decides the grant's end, else it has none.",
      middleware: decider,
      request: {
        params: idParams,
        body: { required: false, content: { 'application/json': { schema: ApproveBody } } },
      },
      responses: { 200: jsonContent(AccessRequest), ...problemResponses(400, 403, 404, 409, 422, 503) },
    }),
    async (c) => {
      const { tenantId, userId } = c.get('caller');
      const body = (await readOptionalJson(await c.req.text(), ApproveBody)) ?? {};
      const { db, settings, clock } = c.get('deps');
      const row = await approveAccessRequest(db, {
        tenantId,
        userId,
        id: c.req.valid('param').id,
        level: body.level,
        expiresAt: body.expiresAt ? new Date(body.expiresAt) : undefined,
        now: clock?.(),
        requestTtlDays: settings['access.request-ttl-days'],
      });
      return c.json(view(row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/org/access-requests/{id}/deny',
      tags,
      summary: 'Deny; optional `decisionNote` is stored; no grant is made',
      middleware: decider,
      request: {
        params: idParams,
        body: { required: false, content: { 'application/json': { schema: DenyBody } } },
      },
      responses: { 200: jsonContent(AccessRequest), ...problemResponses(400, 403, 404, 409) },
    }),
    async (c) => {
      const { tenantId, userId } = c.get('caller');
      const body = (await readOptionalJson(await c.req.text(), DenyBody)) ?? {};
      const { db, settings } = c.get('deps');
      const row = await denyAccessRequest(db, {
        tenantId,
        userId,
        id: c.req.valid('param').id,
        decisionNote: body.decisionNote,
        requestTtlDays: settings['access.request-ttl-days'],
      });
      return c.json(view(row), 200);
    },
  );

  return app;
}

/** An optional JSON body: absent or empty is fine; present must parse and validate (else 400). */
function readOptionalJson<T extends z.ZodType>(text: string, schema: T): z.output<T> | undefined {
  if (text.trim() === '') return undefined;
  return parseJsonBody(text, schema);
}
