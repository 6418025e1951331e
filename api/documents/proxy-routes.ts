// The proxy tier: what clients call. It asks the registry (RegistryClient) and moves bytes
// between the client and S3; no response of it carries a storage key.
import { createRoute, z } from '@hono/zod-openapi';
import { removeDocument } from '../../services/documents/remove-document';
import { tenantIdentity, userIdentity } from '../middleware/identity';
import { createRouter, jsonBody, jsonContent, problemResponses, ProblemSchema, uuidParam } from '../openapi';
import { securityOf } from '../openapi-security';
import { downloadDocument } from './download';
import { ifMatchVersion, listSelector, registryCaller } from './request-parts';
import type { DocumentsRuntime } from './runtime';
import { DocumentPage, DocumentView, ListQuery, ProcessStartedBody, ProcessStartedResponse, UploadFields } from './schemas';
import { uploadDocument } from './upload';
import { text } from '../vocabulary';

const tags = ['Documents'];
const identity = [userIdentity, tenantIdentity]; // the upload below mounts the same two
const docParams = z.object({ docId: uuidParam('docId') });

export function documentProxyRoutes(rt: DocumentsRuntime) {
  const app = createRouter();

  // The upload is a plain handler (a body validator would buffer it), documented in the
  // OpenAPI registry by hand.
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/api/documents',
    tags,
    security: securityOf(identity),
    summary: 'Upload a file (multipart: the fields, then the part "file"); 201 with the document view',
    description:
      'Fields must precede the file part: the guard (capability write plus task or process context) runs on them before any byte is stored. ' +
      'The size cap `docstore.max-bytes` is counted on the stream (with or without Content-Length): 413 and the S3 upload aborted. ' +
      'With a Content-Length the file streams to S3 as it arrives; the file part must then end the body (an epilogue above 64 KiB: 400 `multipart-trailing-data`).',
    request: {
      body: {
        required: true,
        content: { 'multipart/form-data': { schema: UploadFields.extend({ file: z.string().openapi({ format: 'binary' }) }) } },
      },
    },
    responses: { 201: jsonContent(DocumentView, 'Stored; status READY, QUARANTINED, or PENDING while a scan retry runs'), ...problemResponses(400, 403, 404, 409, 413, 415, 503) },
  });
  app.post('/api/documents', userIdentity, tenantIdentity, (c) => uploadDocument(c, rt));

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/documents/{docId}/content',
      tags,
      summary: 'Stream the bytes; one Range gives 206, several give 200 with the whole body',
      middleware: identity,
      request: {
        params: docParams,
        headers: z.object({ range: text({ max: 200 }).optional().openapi({ example: 'bytes=0-1023' }), 'if-range': text({ max: 200 }).optional() }),
      },
      responses: {
        200: { description: 'Whole document', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
        206: { description: 'One byte range, with Content-Range', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
        416: { description: 'Range not satisfiable (Content-Range: bytes */size)', content: { 'application/problem+json': { schema: ProblemSchema } } },
        ...problemResponses(400, 403, 404, 409, 423, 503),
      },
    }),
    (c) => downloadDocument(c, rt, c.req.valid('param').docId),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/documents/{docId}',
      tags,
      summary: 'Document metadata (guard: read)',
      middleware: identity,
      request: { params: docParams },
      responses: { 200: jsonContent(DocumentView), ...problemResponses(400, 403, 404) },
    }),
    async (c) => c.json(await rt.registry.get(registryCaller(c), c.req.valid('param').docId), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/documents',
      tags,
      summary: "List a case file (processRef), a task (taskId) or an owner's documents (capability + ownerEntityId); filtered by read permission; paged",
      middleware: identity,
      request: { query: ListQuery },
      responses: { 200: jsonContent(DocumentPage), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await rt.registry.list(registryCaller(c), { selector: listSelector(q), limit: q.limit, cursor: q.cursor }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/documents/{docId}',
      tags,
      summary: 'Soft delete in the registry, then drop the object (delete marker when retained, purge when never retained)',
      middleware: identity,
      request: {
        params: docParams,
        headers: z.object({ 'if-match': text({ max: 40 }).optional().openapi({ description: 'Expected version, e.g. "3"; 409 if it moved' }) }),
      },
      responses: { 200: jsonContent(DocumentView, 'Deleted; the view with status DELETED'), ...problemResponses(400, 403, 404, 409) },
    }),
    async (c) => {
      const expected = ifMatchVersion(c.req.header('If-Match'));
      return c.json(await removeDocument(rt.removeDeps(c.get('log')), registryCaller(c), c.req.valid('param').docId, expected), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/documents/process-started',
      tags,
      summary: 'Backfill processInstanceId for a processRef (needs a read-write grant on a document capability)',
      middleware: identity,
      request: { body: jsonBody(ProcessStartedBody) },
      responses: { 200: jsonContent(ProcessStartedResponse), ...problemResponses(400, 403, 404, 409) },
    }),
    async (c) => c.json(await rt.registry.processStarted(registryCaller(c), c.req.valid('json')), 200),
  );

  return app;
}
