// The registry (core) over HTTP: server-to-server only, never routed by the gateway.
// X-Internal-Key authenticates the calling tier; X-Tenant-Id with X-User-Id or
// X-Document-Principal names whom it acts for (registry-identity.ts), and the registry's rules
// apply to that caller exactly as in-process.
import { createRoute, z } from '@hono/zod-openapi';
import { internalKey } from '../middleware/internal-key';
import { createRouter, jsonBody, jsonContent, problemResponses, uuidParam } from '../openapi';
import type { AppEnv } from '../env';
import type { Context } from 'hono';
import type { DocumentRegistry } from '../../services/documents/document-registry';
import { internalRegistryCaller, registryIdentity } from './registry-identity';
import { ifMatchVersion, listSelector } from './request-parts';
import {
  AuthorizeBody,
  AuthorizeResponse,
  DocumentPage,
  DocumentView,
  FinalizeBody,
  ListQuery,
  ProcessStartedBody,
  ProcessStartedResponse,
  RemoveResponse,
  ResolveResponse,
} from './schemas';
import { sealStorageKey } from './storage-ticket';
import { text } from '../vocabulary';

const tags = ['Documents: registry (internal)'];
const middleware = [internalKey, registryIdentity];
const docParams = z.object({ docId: uuidParam('docId') });
const IfMatch = z.object({
  'if-match': text({ max: 40 }).optional().openapi({ description: 'Expected document version, e.g. "3"' }),
});

const seal = (c: Context<AppEnv>, tenantId: string, docId: string, storageKey: string) =>
  // internalKey middleware has already refused a blank key.
  sealStorageKey(c.get('deps').settings['internal.key']!, tenantId, docId, storageKey);

export function documentRegistryRoutes(registry: DocumentRegistry) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/internal/documents/authorize',
      tags,
      summary: 'Create a PENDING document (guard: capability write plus task or process context); returns docId and a sealed storage key',
      middleware,
      request: { body: jsonBody(AuthorizeBody) },
      responses: { 201: jsonContent(AuthorizeResponse, 'Authorized'), ...problemResponses(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const caller = internalRegistryCaller(c);
      const a = await registry.authorize(caller, c.req.valid('json'));
      const { storageKey, ...rest } = a;
      return c.json({ ...rest, storageTicket: seal(c, caller.tenantId, a.docId, storageKey) }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/internal/documents/{docId}/finalize',
      tags,
      summary: 'PENDING → READY (or QUARANTINED, or PENDING with a durable scan retry) with size and SHA-256',
      middleware,
      request: { params: docParams, body: jsonBody(FinalizeBody) },
      responses: { 200: jsonContent(DocumentView), ...problemResponses(400, 401, 403, 404, 409) },
    }),
    async (c) => c.json(await registry.finalize(internalRegistryCaller(c), c.req.valid('param').docId, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/internal/documents/{docId}/resolve',
      tags,
      summary: 'Gated resolve for download (guard: read): 409 not READY, 423 QUARANTINED',
      middleware,
      request: { params: docParams },
      responses: { 200: jsonContent(ResolveResponse), ...problemResponses(400, 401, 403, 404, 409, 423) },
    }),
    async (c) => {
      const docId = c.req.valid('param').docId;
      const caller = internalRegistryCaller(c);
      const r = await registry.resolve(caller, docId);
      return c.json({ document: r.document, storageVersionId: r.storageVersionId, storageTicket: seal(c, caller.tenantId, docId, r.storageKey) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/internal/documents/{docId}',
      tags,
      summary: 'Document metadata (guard: read)',
      middleware,
      request: { params: docParams },
      responses: { 200: jsonContent(DocumentView), ...problemResponses(400, 401, 403, 404) },
    }),
    async (c) => c.json(await registry.get(internalRegistryCaller(c), c.req.valid('param').docId), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/internal/documents',
      tags,
      summary: 'List by processRef, by taskId, or by capability with ownerEntityId; filtered by read permission; paged',
      middleware,
      request: { query: ListQuery },
      responses: { 200: jsonContent(DocumentPage), ...problemResponses(400, 401, 403, 404) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await registry.list(internalRegistryCaller(c), { selector: listSelector(q), limit: q.limit, cursor: q.cursor }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/internal/documents/{docId}',
      tags,
      summary: 'Soft delete (guard: write); returns the sealed storage key and the hard-delete signal',
      middleware,
      request: { params: docParams, headers: IfMatch },
      responses: { 200: jsonContent(RemoveResponse), ...problemResponses(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const docId = c.req.valid('param').docId;
      const caller = internalRegistryCaller(c);
      const r = await registry.remove(caller, docId, ifMatchVersion(c.req.header('If-Match')));
      return c.json(
        { document: r.document, storageVersionId: r.storageVersionId, hardDelete: r.hardDelete, storageTicket: seal(c, caller.tenantId, docId, r.storageKey) },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/internal/documents/process-started',
      tags,
      summary: 'Backfill processInstanceId for a processRef (and record the process as a context)',
      middleware,
      request: { body: jsonBody(ProcessStartedBody) },
      responses: { 200: jsonContent(ProcessStartedResponse), ...problemResponses(400, 401, 403, 404, 409) },
    }),
    async (c) => c.json(await registry.processStarted(internalRegistryCaller(c), c.req.valid('json')), 200),
  );

  return app;
}
