// Create, list, fetch (by id or code), rename, clone, soft-delete and hard-purge definitions.
import { createRoute, z } from '@hono/zod-openapi';
import type { DefinitionsTable } from '../../db/schema/definitions';
import { cloneDefinition, createDefinition } from '../../services/definitions/create-definition';
import { getDefinition, getDefinitionByCode, listDefinitions } from '../../services/definitions/read-definitions';
import { purgeDefinition } from '../../services/definitions/purge';
import { renameDefinition } from '../../services/definitions/rename';
import { deleteDefinition } from '../../services/definitions/retirement';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../domain/keyset-cursor';
import { createRouter, jsonBody, jsonContent, noContent, problemResponses } from '../openapi';
import { actorOf, answer } from './context';
import { definitionGuards } from './guards';
import type { DefinitionApi } from './plugin';
import { DefinitionPath, type DefinitionSchemas } from './schemas';
import { definitionViews } from './views';

export function definitionCrudRoutes<D extends DefinitionsTable, C extends z.ZodRawShape, V extends z.ZodRawShape>(
  api: DefinitionApi<D, C, V>,
  s: DefinitionSchemas,
) {
  const app = createRouter();
  const cap = api.capability;
  const views = definitionViews(api);
  const { reader, writer } = definitionGuards(cap.code);
  const tags = [api.tag];
  const base = api.basePath;

  app.openapi(
    createRoute({
      method: 'post',
      path: base,
      tags,
      summary: `Create a definition (DRAFT, code ${cap.codePrefix}XXXXDDMMMYY generated)`,
      description: "The draft is stored whatever its problems; they are answered in `problems`.",
      middleware: writer,
      request: { body: jsonBody(s.CreateBody) },
      responses: { 201: jsonContent(s.Saved, 'Created'), ...problemResponses(400) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      const body = c.req.valid('json');
      const created = await createDefinition(deps, cap, actor, {
        name: body.name,
        draftSchema: body.draftSchema,
        // The create body is built with the capability's fields (definitionSchemas), so they are there.
        columns: api.columnsOf(body as unknown as z.output<z.ZodObject<C>>),
      });
      const own = api.createProblems?.(body as unknown as z.output<z.ZodObject<C>>) ?? [];
      return answer(c, views.saved(created.definition, [...created.problems, ...own]), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: base,
      tags,
      summary: 'Live definitions, newest first (drafts left out)',
      middleware: reader,
      request: { query: s.ListQuery },
      responses: { 200: jsonContent(s.Page), ...problemResponses(400) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      const q = c.req.valid('query');
      const rows = await listDefinitions(deps, cap, actor, {
        status: q.status,
        before: q.cursor ? decodeKeysetCursor(q.cursor) : null,
        limit: q.limit,
      });
      const last = rows.length === q.limit ? rows[rows.length - 1] : undefined;
      return answer(c, { items: rows.map(views.summary), nextCursor: last ? encodeKeysetCursor({ createdAt: last.cursorAt, id: last.id }) : null }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: `${base}/by-code/{code}`,
      tags,
      summary: 'One definition by its code',
      middleware: reader,
      request: { params: s.CodePath },
      responses: { 200: jsonContent(s.Definition), ...problemResponses(400, 404) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      const row = await getDefinitionByCode(deps, cap, actor, c.req.valid('param').code);
      return answer(c, views.definition(row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: `${base}/{id}`,
      tags,
      summary: 'One definition with its draft',
      middleware: reader,
      request: { params: DefinitionPath },
      responses: { 200: jsonContent(s.Definition), ...problemResponses(400, 404) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return answer(c, views.definition(await getDefinition(deps, cap, actor, c.req.valid('param').id)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: `${base}/{id}`,
      tags,
      summary: api.patchFields ? "Rename a definition and/or change its own settings" : 'Rename a definition',
      description:
        'Audited as `renamed`; the edit lock does not stop it (it guards the draft). The same name again changes nothing.' +
        (api.patchFields ? " The capability's own fields are applied after the name, each audited in its own step (docs of the capability)." : ''),
      middleware: writer,
      request: { params: DefinitionPath, body: jsonBody(s.RenameBody) },
      responses: { 200: jsonContent(s.Definition), ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      const id = c.req.valid('param').id;
      const { name, ...own } = c.req.valid('json') as { name?: string } & Record<string, unknown>;
      let row = name === undefined ? await getDefinition(deps, cap, actor, id) : await renameDefinition(deps, cap, actor, id, name);
      if (!api.patch || Object.values(own).every((v) => v === undefined)) return answer(c, views.definition(row), 200);
      const patched = await api.patch(deps, actor, id, own);
      row = patched.definition;
      return answer(c, views.saved(row, [...cap.rules.check(row.draftSchema), ...patched.problems]), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${base}/{id}/clone`,
      tags,
      summary: 'A new DRAFT definition from a version (default: the latest)',
      description: "The clone has its own code, no versions and the source's settings; 409 `no-version-checked-in` when the source has none.",
      middleware: writer,
      request: { params: DefinitionPath, body: { required: false, content: { 'application/json': { schema: s.CloneBody } } } },
      responses: { 201: jsonContent(s.Saved, 'Created'), ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      const body = c.req.valid('json');
      const { version, name, ...options } = (body ?? {}) as { version?: number; name?: string } & Record<string, unknown>;
      const created = await cloneDefinition(deps, cap, actor, c.req.valid('param').id, { version, name, options });
      return answer(c, views.saved(created.definition, created.problems), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: `${base}/{id}`,
      tags,
      summary: 'Soft-delete a definition (afterwards 404 everywhere but its audit trail)',
      middleware: writer,
      request: { params: DefinitionPath },
      responses: { 204: noContent, ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      await deleteDefinition(deps, cap, actor, c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: `${base}/{id}/purge`,
      tags,
      summary: 'Hard-purge a definition and its versions (live or soft-deleted); the audit trail stays',
      description:
        "Irreversible. The trail records `purged` and stays readable at GET .../audit. 409 `definition-locked` under another user's fresh lock on a live definition.",
      middleware: writer,
      request: { params: DefinitionPath },
      responses: { 204: noContent, ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      await purgeDefinition(deps, cap, actor, c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  return app;
}
