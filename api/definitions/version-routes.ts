// Versions (list, one, its JSON Schema) and the audit trail.
import { createRoute, z } from '@hono/zod-openapi';
import type { DefinitionsTable } from '../../db/schema/definitions';
import { getVersion, listAuditEvents, listVersions } from '../../services/definitions/read-definitions';
import { createRouter, jsonContent, problemResponses } from '../openapi';
import { actorOf, answer } from './context';
import { definitionGuards } from './guards';
import type { DefinitionApi } from './plugin';
import { DefinitionPath, VersionPath, type DefinitionSchemas } from './schemas';
import { definitionViews } from './views';

export function versionRoutes<D extends DefinitionsTable, C extends z.ZodRawShape, V extends z.ZodRawShape>(
  api: DefinitionApi<D, C, V>,
  s: DefinitionSchemas,
) {
  const app = createRouter();
  const cap = api.capability;
  const views = definitionViews(api);
  const { reader } = definitionGuards(cap.code);
  const tags = [api.tag];
  const base = api.basePath;

  app.openapi(
    createRoute({
      method: 'get',
      path: `${base}/{id}/versions`,
      tags,
      summary: 'Checked-in versions, oldest first (without their schemas)',
      middleware: reader,
      request: { params: DefinitionPath },
      responses: { 200: jsonContent(z.array(s.VersionSummary)), ...problemResponses(400, 404) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return answer(c, (await listVersions(deps, cap, actor, c.req.valid('param').id)).map(views.versionSummary), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: `${base}/{id}/versions/{v}`,
      tags,
      summary: 'One version with its schema',
      middleware: reader,
      request: { params: VersionPath },
      responses: { 200: jsonContent(s.Version), ...problemResponses(400, 404) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      const { id, v } = c.req.valid('param');
      return answer(c, views.version(await getVersion(deps, cap, actor, id, v)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: `${base}/{id}/versions/{v}/json-schema`,
      tags,
      summary: "The version's schema as JSON Schema",
      middleware: reader,
      request: { params: VersionPath },
      responses: { 200: jsonContent(z.record(z.string(), z.unknown())), ...problemResponses(400, 404) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      const { id, v } = c.req.valid('param');
      const version = await getVersion(deps, cap, actor, id, v);
      return answer(c, cap.rules.jsonSchema(cap.rules.repair(version.schema)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: `${base}/{id}/audit`,
      tags,
      summary: 'Audit trail, newest first (also of a deleted definition)',
      middleware: reader,
      request: { params: DefinitionPath, query: s.AuditQuery },
      responses: { 200: jsonContent(s.AuditPage), ...problemResponses(400, 404) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      const q = c.req.valid('query');
      const rows = await listAuditEvents(deps, cap, actor, c.req.valid('param').id, { before: q.before, limit: q.limit });
      const last = rows.length === q.limit ? rows[rows.length - 1] : undefined;
      return answer(c, { items: rows.map(views.auditEvent), nextBefore: last ? last.id : null }, 200);
    },
  );

  return app;
}
