import { createRoute, z } from '@hono/zod-openapi';
import type { Db } from '../../db/client';
import { listAccessRequests, type AccessRequestRow } from '../../db/queries/access-requests';
import { capabilityNames } from '../../db/queries/catalog';
import { userNames } from '../../db/queries/membership';
import {
  approveAccessRequest,
  cancelAccessRequest,
  denyAccessRequest,
  submitAccessRequest,
} from '../../services/access/access-requests';
import { parseJsonBody } from '../body';
import { asMember, ownerOrOperator, tenantIdentity, userIdentity } from '../middleware/identity';
import { createRouter, jsonBody, jsonContent, problemResponses, uuidParam } from '../openapi';
import { AccessRequest, AccessRequestBody, ApproveBody, DenyBody, toIso, toIsoOrNull } from './schemas';

const tags = ['Access: requests'];
const member = asMember;
const decider = [userIdentity, tenantIdentity, ownerOrOperator];
const idParams = z.object({ id: uuidParam() });

/** Names and labels are resolved at read time, so renames show up everywhere at once. */
async function views(db: Db, rows: AccessRequestRow[]) {
  const [names, labels] = await Promise.all([
    userNames(
      db,
      rows.flatMap((r) => (r.decidedBy ? [r.userId, r.decidedBy] : [r.userId])),
    ),
    capabilityNames(db),
  ]);
  return rows.map((r) => ({
    id: r.id,
    tenantId: r.tenantId,
    userId: r.userId,
    userName: names.get(r.userId) ?? null,
    capabilityCode: r.capabilityCode,
    capabilityName: labels.get(r.capabilityCode) ?? null,
    requestedLevel: r.requestedLevel,
    grantedLevel: r.grantedLevel,
    status: r.status,
    note: r.note,
    decidedBy: r.decidedBy,
    decidedByName: r.decidedBy ? (names.get(r.decidedBy) ?? null) : null,
    decisionNote: r.decisionNote,
    createdAt: toIso(r.createdAt),
    decidedAt: toIsoOrNull(r.decidedAt),
  }));
}
const one = async (db: Db, row: AccessRequestRow) => (await views(db, [row]))[0]!;

export function requestRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/access-requests',
      tags,
      summary: 'Request access to a capability',
      description:
        '409 when already granted at (or above) that level or an open request exists; 422 for an unknown, retired or unsubscribed capability.',
      middleware: member,
      request: { body: jsonBody(AccessRequestBody) },
      responses: { 201: jsonContent(AccessRequest, 'Created'), ...problemResponses(400, 403, 404, 409, 422) },
    }),
    async (c) => {
      const db = c.get('deps').db;
      const row = await submitAccessRequest(db, c.get('caller'), c.req.valid('json'));
      return c.json(await one(db, row), 201);
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
      const db = c.get('deps').db;
      const { tenantId, userId } = c.get('caller');
      return c.json(await views(db, await listAccessRequests(db, tenantId, { userId })), 200);
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
      const db = c.get('deps').db;
      const row = await cancelAccessRequest(db, c.get('caller'), c.req.valid('param').id);
      return c.json(await one(db, row), 200);
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
        query: z.object({ status: z.enum(['PENDING', 'APPROVED', 'DENIED', 'CANCELLED']).default('PENDING') }),
      },
      responses: { 200: jsonContent(z.array(AccessRequest)), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const db = c.get('deps').db;
      const rows = await listAccessRequests(db, c.get('caller').tenantId, { status: c.req.valid('query').status });
      return c.json(await views(db, rows), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/org/access-requests/{id}/approve',
      tags,
      summary: 'Approve; optional `level` overrides the requested level (same path as a direct grant)',
      description: 'Self-approval is refused (403 `self-approval`); 409 when not PENDING or the tenant is not subscribed.',
      middleware: decider,
      request: {
        params: idParams,
        body: { required: false, content: { 'application/json': { schema: ApproveBody } } },
      },
      responses: { 200: jsonContent(AccessRequest), ...problemResponses(400, 403, 404, 409, 422, 503) },
    }),
    async (c) => {
      const db = c.get('deps').db;
      const body = (await readOptionalJson(await c.req.text(), ApproveBody)) ?? {};
      const row = await approveAccessRequest(db, c.get('caller'), c.req.valid('param').id, body.level);
      return c.json(await one(db, row), 200);
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
      const db = c.get('deps').db;
      const body = (await readOptionalJson(await c.req.text(), DenyBody)) ?? {};
      const row = await denyAccessRequest(db, c.get('caller'), c.req.valid('param').id, body.decisionNote);
      return c.json(await one(db, row), 200);
    },
  );

  return app;
}

/** An optional JSON body: absent or empty is fine; present must parse and validate (else 400). */
function readOptionalJson<T extends z.ZodType>(text: string, schema: T): z.output<T> | undefined {
  if (text.trim() === '') return undefined;
  return parseJsonBody(text, schema);
}
