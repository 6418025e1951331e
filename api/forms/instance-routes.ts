// Form instance management for the tenant (spec: POST, GET, PATCH /api/form-instances, POST
// /{id}/submit; cancel named without a path). FORMS guard: reads need `read`, writes `read-write`.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../domain/keyset-cursor';
import {
  cancelInstance,
  createInstance,
  getInstance,
  listInstances,
  saveInstanceData,
  submissionOutboxOf,
  submitInstance,
} from '../../services/forms/instances';
import type { FormInstanceRow } from '../../db/queries/form-instances';
import { eventsOfInstance } from '../../services/forms/event-rail-rows';
import { submissionAttachments, submissionPdfs } from '../../services/forms/submission-documents';
import { actorOf } from '../definitions/context';
import { definitionGuards } from '../definitions/guards';
import type { AppEnv } from '../env';
import { createRouter, jsonBody, jsonContent, problemResponses, uuidParam } from '../openapi';
import {
  CreateInstanceBody,
  InstanceListQuery,
  InstancePage,
  InstanceView,
  PatchInstanceBody,
  SubmitInstanceBody,
  instanceSummary,
} from './instance-schemas';

const InstancePath = z.object({ id: uuidParam() });
const BASE = '/api/form-instances';

export async function view(c: Context<AppEnv>, row: FormInstanceRow) {
  const { db } = c.get('deps');
  return {
    ...instanceSummary(row),
    submissionPdf: (await submissionPdfs(db, [row])).get(row.id) ?? null,
    submissionOutbox: await submissionOutboxOf(db, row),
    events: await eventsOfInstance(db, row.tenantId, row.id),
    attachments: await submissionAttachments(db, row),
  };
}

export function instanceRoutes() {
  const app = createRouter();
  const { reader, writer } = definitionGuards('FORMS');
  const tags = ['Forms: instances'];

  app.openapi(
    createRoute({
      method: 'post',
      path: BASE,
      tags,
      summary: 'Create a DRAFT instance pinned to the published version of a definition',
      description: 'Exactly one of `definitionId`, `definitionCode`. 404 `definition-not-found`; 409 `form-not-published` (DRAFT or RETIRED).',
      middleware: writer,
      request: { body: jsonBody(CreateInstanceBody) },
      responses: { 201: jsonContent(InstanceView, 'Created'), ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return c.json(await view(c, await createInstance(deps, actor, c.req.valid('json'))), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: BASE,
      tags,
      summary: 'List instances, newest first (keyset-paged)',
      middleware: reader,
      request: { query: InstanceListQuery },
      responses: { 200: jsonContent(InstancePage), ...problemResponses(400) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      const q = c.req.valid('query');
      const rows = await listInstances(deps, actor, {
        definitionCode: q.definitionCode,
        state: q.state,
        before: q.cursor ? decodeKeysetCursor(q.cursor) : null,
        limit: q.limit,
      });
      const last = rows.length === q.limit ? rows[rows.length - 1] : undefined;
      const pdfs = await submissionPdfs(deps.db, rows);
      const items = rows.map((r) => ({ ...instanceSummary(r), submissionPdf: pdfs.get(r.id) ?? null }));
      return c.json({ items, nextCursor: last ? encodeKeysetCursor({ createdAt: last.cursorAt, id: last.id }) : null }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: `${BASE}/{id}`,
      tags,
      summary: 'An instance, with its submission outbox (the intake start row)',
      middleware: reader,
      request: { params: InstancePath },
      responses: { 200: jsonContent(InstanceView), ...problemResponses(400, 404) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return c.json(await view(c, await getInstance(deps, actor, c.req.valid('param').id)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: `${BASE}/{id}`,
      tags,
      summary: 'Save the data of an open instance (optimistic lock on `version`)',
      description: '409 `version-conflict` when `version` moved; 409 `instance-state-conflict` unless DRAFT (or SENT/OPENED).',
      middleware: writer,
      request: { params: InstancePath, body: jsonBody(PatchInstanceBody) },
      responses: { 200: jsonContent(InstanceView), ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return c.json(await view(c, await saveInstanceData(deps, actor, c.req.valid('param').id, c.req.valid('json'))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${BASE}/{id}/submit`,
      tags,
      summary: 'Submit: validated against the pinned version, SUBMITTED and the intake process queued in one transaction',
      description: '400 `validation-failed` (paths under `data.`); 409 `instance-state-conflict` unless open.',
      middleware: writer,
      request: { params: InstancePath, body: { required: false, content: { 'application/json': { schema: SubmitInstanceBody } } } },
      responses: { 200: jsonContent(InstanceView), ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      const body = (c.req.valid('json') ?? {}) as z.infer<typeof SubmitInstanceBody>;
      return c.json(await view(c, await submitInstance(deps, actor, c.req.valid('param').id, body)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${BASE}/{id}/cancel`,
      tags,
      summary: 'Cancel an open instance (CANCELLED; again: nothing to do)',
      description: '409 `instance-state-conflict` once SUBMITTED or PROCESSED.',
      middleware: writer,
      request: { params: InstancePath },
      responses: { 200: jsonContent(InstanceView), ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return c.json(await view(c, await cancelInstance(deps, actor, c.req.valid('param').id)), 200);
    },
  );
  return app;
}
