// Calls only when allowed: the tenant's do-not-call list and the calling policies (calling
// window, redial) of assistants and numbers.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { CallingPolicyRow } from '../../db/queries/phone-policies';
import type { DoNotCallRow } from '../../db/queries/phone-policies';
import { readCallingPolicy, removeCallingPolicy, setCallingPolicy, type PolicySubject } from '../../services/phone/calling-policies';
import { addToDoNotCall, getDoNotCallEntry, listDoNotCallEntries, removeFromDoNotCall } from '../../services/phone/do-not-call';
import type { AppEnv } from '../env';
import { createRouter, jsonBody, jsonContent, noContent, problemResponses, uuidParam } from '../openapi';
import { text } from '../vocabulary';
import { reader, writer } from './guards';
import { CallingPolicy, CallingPolicyBody, DoNotCallEntry, DoNotCallListQuery, DoNotCallPage, NumberParam } from './policy-schemas';
import { PAGE_SIZE_CAP } from './schemas';

const dncTags = ['Phone: do-not-call'];
const policyTags = ['Phone: calling policies'];

const entryView = (r: DoNotCallRow) => ({
  number: r.number,
  source: r.source,
  callId: r.callId,
  addedBy: r.addedBy,
  createdAt: r.createdAt.toISOString(),
});

const policyView = (r: CallingPolicyRow) => ({
  subjectKind: r.subjectKind,
  subjectId: r.subjectId,
  callingCalendarKey: r.callingCalendarKey,
  redial: r.redial,
  updatedBy: r.updatedBy,
  updatedAt: r.updatedAt.toISOString(),
});

function doNotCallRoutes() {
  const app = createRouter();
  const path = '/api/phone/do-not-call/{number}';

  app.openapi(
    createRoute({
      method: 'put',
      path,
      tags: dncTags,
      summary: 'Put a number on the do-not-call list (normalised to E.164; idempotent)',
      description: '400 `invalid-phone-number` when libphonenumber-js does not call it a valid number in international form.',
      middleware: writer,
      request: { params: NumberParam },
      responses: {
        200: jsonContent(DoNotCallEntry, 'Listed already (the entry as it was)'),
        201: jsonContent(DoNotCallEntry, 'Added'),
        ...problemResponses(400, 403, 404),
      },
    }),
    async (c) => {
      const caller = c.get('caller');
      const { entry, created } = await addToDoNotCall(c.get('deps').db, {
        tenantId: caller.tenantId,
        number: c.req.valid('param').number,
        addedBy: caller.userId,
      });
      return created ? c.json(entryView(entry), 201) : c.json(entryView(entry), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path,
      tags: dncTags,
      summary: 'Whether a number is on the list',
      description: '404 `do-not-call-entry-not-found` when it is not; 400 `invalid-phone-number` as for PUT.',
      middleware: reader,
      request: { params: NumberParam },
      responses: { 200: jsonContent(DoNotCallEntry), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const entry = await getDoNotCallEntry(c.get('deps').db, { tenantId: c.get('caller').tenantId, number: c.req.valid('param').number });
      return c.json(entryView(entry), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path,
      tags: dncTags,
      summary: 'Take a number off the list',
      description: '404 `do-not-call-entry-not-found` when it is not listed; 400 `invalid-phone-number` as for PUT.',
      middleware: writer,
      request: { params: NumberParam },
      responses: { 204: noContent, ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      await removeFromDoNotCall(c.get('deps').db, { tenantId: c.get('caller').tenantId, number: c.req.valid('param').number });
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/phone/do-not-call',
      tags: dncTags,
      summary: 'The do-not-call list in number order (keyset-paged; page size capped at 200)',
      middleware: reader,
      request: { query: DoNotCallListQuery },
      responses: { 200: jsonContent(DoNotCallPage), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const page = await listDoNotCallEntries(c.get('deps').db, {
        tenantId: c.get('caller').tenantId,
        limit: Math.min(q.limit, PAGE_SIZE_CAP),
        cursor: q.cursor,
      });
      return c.json({ items: page.items.map(entryView), limit: page.limit, nextCursor: page.nextCursor }, 200);
    },
  );
  return app;
}

/** The same three routes for an assistant (provider id) and a registered number (our id). */
function callingPolicyRoutes(base: string, subjectKind: PolicySubject['subjectKind'], params: z.ZodObject<{ id: z.ZodTypeAny }>) {
  const app = createRouter();
  const path = `${base}/{id}/calling-policy`;
  const subject = (c: Context<AppEnv>, id: string): PolicySubject => ({ tenantId: c.get('caller').tenantId, subjectKind, subjectId: id });
  const what = subjectKind === 'assistant' ? 'an assistant' : 'a phone number';

  app.openapi(
    createRoute({
      method: 'put',
      path,
      tags: policyTags,
      summary: `Set the calling policy of ${what} (replaces it; omitted fields are cleared)`,
      description: '422 `unknown-process-calendar` when `callingCalendarKey` names no process calendar association of the tenant.',
      middleware: writer,
      request: { params, body: jsonBody(CallingPolicyBody) },
      responses: { 200: jsonContent(CallingPolicy), ...problemResponses(400, 403, 404, 422) },
    }),
    async (c) => {
      const { id } = c.req.valid('param') as { id: string };
      const row = await setCallingPolicy(c.get('deps').db, {
        ...subject(c, id),
        policy: c.req.valid('json'),
        updatedBy: c.get('caller').userId,
      });
      return c.json(policyView(row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path,
      tags: policyTags,
      summary: `The calling policy of ${what}`,
      description: '404 `calling-policy-not-found` when it has none.',
      middleware: reader,
      request: { params },
      responses: { 200: jsonContent(CallingPolicy), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { id } = c.req.valid('param') as { id: string };
      return c.json(policyView(await readCallingPolicy(c.get('deps').db, subject(c, id))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path,
      tags: policyTags,
      summary: `Remove the calling policy of ${what}`,
      description: '404 `calling-policy-not-found` when it has none.',
      middleware: writer,
      request: { params },
      responses: { 204: noContent, ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const { id } = c.req.valid('param') as { id: string };
      await removeCallingPolicy(c.get('deps').db, subject(c, id));
      return c.body(null, 204);
    },
  );
  return app;
}

export function policyRoutes() {
  const app = createRouter();
  app.route('/', doNotCallRoutes());
  app.route('/', callingPolicyRoutes('/api/phone/assistants', 'assistant', z.object({ id: text({ max: 200 }).openapi({ param: { name: 'id', in: 'path' } }) })));
  app.route('/', callingPolicyRoutes('/api/phone-numbers', 'phone-number', z.object({ id: uuidParam() })));
  return app;
}
