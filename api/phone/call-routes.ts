import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { PhoneCallRow } from '../../db/queries/phone';
import { cancelScheduledCall } from '../../services/phone/call-chain';
import { getCall, listCalls } from '../../services/phone/call-reads';
import { placeInternalCall, placeOutboundCall } from '../../services/phone/placement';
import type { AppEnv } from '../env';
import { internalKey } from '../middleware/internal-key';
import { createRouter, jsonBody, jsonContent, problemResponses, TENANT_ID, USER_ID, uuidParam } from '../openapi';
import { reader, writer } from './guards';
import { CallListQuery, PAGE_SIZE_CAP, PhoneCall, PhoneCallPage, PlaceCallBody } from './schemas';
import { callSummary, callView } from './views';

const tags = ['Phone: calls'];

const PLACEMENT_RULES =
  'Defaults (assistant, number) come from PhoneSettings. Caller mistakes are answered before anything is saved: ' +
  '409 `number-on-do-not-call` (recorded as a REFUSED call, `callId`; nobody is dialled), ' +
  '400 `validation-failed` / `invalid-customer-number` (not E.164), 422 `assistant-unresolved`, `phone-number-unresolved`, ' +
  '`unknown-phone-number` (another tenant\'s number), `provider-key-missing`, and for a call with a calling window ' +
  '`calling-window-never-opens` (its calendar has no open hours ahead), `unknown-callee-location`, `unknown-process-calendar` ' +
  '(the policy\'s key names no association any more). Otherwise the call is saved QUEUED with its ' +
  'process outbox row and the provider is asked: the answer is 201 with the call RINGING, or FAILED with `errorMessage` ' +
  'when the provider refused or failed (never an error status). Outside the calling window of the assistant or number ' +
  '(callingCalendarKey) the answer is 202 with the call SCHEDULED: its process places it when the window opens.';

/**
 * `Idempotency-Key`: a client retrying a placement after a lost answer gets the first call back
 * (200) instead of dialling twice. Keys are per tenant; the workflow action uses its own key space.
 */
const idempotencyKey = z
  .string()
  .regex(/^[\x21-\x7E]{1,200}$/, 'must be 1-200 printable characters')
  .optional()
  .openapi({ description: 'Repeat a placement safely: the same key returns the first call (200) without dialling again.' });
const placementKeyOf = (key: string | undefined) => (key === undefined ? undefined : `http:${key}`);

/** 201 placed (RINGING or FAILED), 202 SCHEDULED for its calling window, 200 a repeat. */
function placed(c: Context<AppEnv>, call: PhoneCallRow, created: boolean) {
  if (!created) return c.json(callView(call), 200);
  return call.status === 'SCHEDULED' ? c.json(callView(call), 202) : c.json(callView(call), 201);
}

function placementDeps(c: Context<AppEnv>) {
  const { db, settings } = c.get('deps');
  return { db, settings, logger: c.get('log') };
}

export function callRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/phone-calls',
      tags,
      summary: 'Place an outbound call (records X-User-Id as initiator)',
      description: PLACEMENT_RULES,
      middleware: writer,
      request: { headers: z.object({ 'idempotency-key': idempotencyKey }), body: jsonBody(PlaceCallBody) },
      responses: {
        200: jsonContent(PhoneCall, 'A repeat of an earlier placement with the same Idempotency-Key'),
        201: jsonContent(PhoneCall, 'Saved; RINGING or FAILED'),
        202: jsonContent(PhoneCall, 'Outside the calling window: SCHEDULED, placed when it opens'),
        ...problemResponses(400, 403, 404, 409, 422, 503),
      },
    }),
    async (c) => {
      const caller = c.get('caller');
      const { call, created } = await placeOutboundCall(placementDeps(c), {
        tenantId: caller.tenantId,
        initiatedBy: caller.userId,
        placementKey: placementKeyOf(c.req.valid('header')['idempotency-key']),
        ...c.req.valid('json'),
      });
      return placed(c, call, created);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/phone-calls',
      tags,
      summary: 'List calls, newest first (keyset-paged; page size capped at 200)',
      middleware: reader,
      request: { query: CallListQuery },
      responses: { 200: jsonContent(PhoneCallPage), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const page = await listCalls(c.get('deps').db, {
        tenantId: c.get('caller').tenantId,
        status: q.status,
        direction: q.direction,
        limit: Math.min(q.limit, PAGE_SIZE_CAP),
        cursor: q.cursor,
      });
      return c.json({ items: page.items.map(callSummary), limit: page.limit, nextCursor: page.nextCursor }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/phone-calls/{id}',
      tags,
      summary: 'One call with transcript, recording, summary, cost and analysis',
      middleware: reader,
      request: { params: z.object({ id: uuidParam() }) },
      responses: { 200: jsonContent(PhoneCall), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const row = await getCall(c.get('deps').db, { tenantId: c.get('caller').tenantId, id: c.req.valid('param').id });
      return c.json(callView(row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/phone-calls/{id}/cancel',
      tags,
      summary: 'Cancel a SCHEDULED call (the call, or the redial its chain is waiting for)',
      description: '409 `phone-call-not-scheduled` when no call of its chain is SCHEDULED (placed, ended, cancelled already).',
      middleware: writer,
      request: { params: z.object({ id: uuidParam() }) },
      responses: { 200: jsonContent(PhoneCall, 'The cancelled call'), ...problemResponses(400, 403, 404, 409) },
    }),
    async (c) => {
      const row = await cancelScheduledCall(c.get('deps').db, { tenantId: c.get('caller').tenantId, callId: c.req.valid('param').id });
      return c.json(callView(row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/internal/phone-calls',
      tags,
      summary: 'Outbound call for processes (X-Internal-Key); actor `system` unless X-User-Id is given',
      description: `X-Tenant-Id names the tenant (404 \`tenant-not-found\` when unknown). ${PLACEMENT_RULES}`,
      security: [{ InternalKey: [] }],
      middleware: [internalKey],
      request: {
        headers: z.object({
          'x-tenant-id': z.string().regex(TENANT_ID, 'must be a tenant id'),
          'x-user-id': z.string().regex(USER_ID, 'must be 1-200 printable characters').optional(),
          'idempotency-key': idempotencyKey,
        }),
        body: jsonBody(PlaceCallBody),
      },
      responses: {
        200: jsonContent(PhoneCall, 'A repeat of an earlier placement with the same Idempotency-Key'),
        201: jsonContent(PhoneCall, 'Saved; RINGING or FAILED'),
        202: jsonContent(PhoneCall, 'Outside the calling window: SCHEDULED, placed when it opens'),
        ...problemResponses(400, 401, 403, 404, 409, 422, 503),
      },
    }),
    async (c) => {
      const headers = c.req.valid('header');
      const { call, created } = await placeInternalCall(placementDeps(c), {
        tenantId: headers['x-tenant-id'],
        initiatedBy: headers['x-user-id'] ?? 'system',
        placementKey: placementKeyOf(headers['idempotency-key']),
        ...c.req.valid('json'),
      });
      return placed(c, call, created);
    },
  );

  return app;
}
