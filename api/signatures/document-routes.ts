// The source PDF of a signing definition: POST .../document (multipart, part `file`) checks and
// stores it and sets the draft's `document`; GET .../document/{key} streams it back unchanged.
// The whole body is bounded by `signatures.source-pdf-max-bytes` (plus room for the envelope) on
// the stream, since pdf-lib reads the PDF whole.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { AppError, badRequest } from '../../domain/errors';
import { ENVELOPE_BYTES } from '../../domain/documents/multipart-envelope';
import { documentTooLarge } from '../../services/documents/store-document';
import { sourceDocumentOf, uploadSourceDocument } from '../../services/signatures/source-document';
import { validationFailed } from '../body';
import { actorOf } from '../definitions/context';
import { downloadDocument } from '../documents/download';
import { registryCaller } from '../documents/request-parts';
import type { DocumentsRuntime } from '../documents/runtime';
import type { AppEnv } from '../env';
import { capabilityGuard } from '../middleware/capability-guard';
import { tenantIdentity, userIdentity } from '../middleware/identity';
import { createRouter, jsonContent, problemResponses, ProblemSchema, raises, uuidParam } from '../openapi';
import { securityOf } from '../openapi-security';
import { signatureDefinitionApi } from './definition-plugin';

const BASE = signatureDefinitionApi.basePath;
const tags = [signatureDefinitionApi.tag];

const capOf = (c: Context<AppEnv>) => {
  const { settings } = c.get('deps');
  return Math.min(settings['signatures.source-pdf-max-bytes'], settings['docstore.max-bytes']);
};

const boundedUpload = raises(
  createMiddleware<AppEnv>((c, next) =>
    bodyLimit({
      maxSize: capOf(c) + ENVELOPE_BYTES,
      onError: () => {
        throw documentTooLarge(capOf(c));
      },
    })(c, next),
  ),
  'document-too-large',
);

const UploadPath = z.object({ id: uuidParam() });
const reader = [userIdentity, tenantIdentity, capabilityGuard('SIGNATURES', 'read')];
const writeGuard = capabilityGuard('SIGNATURES', 'write');

const SourceDocument = z
  .object({
    key: z.string().openapi({ description: 'Opaque key of the stored PDF (never a storage key); GET .../document/{key} streams it' }),
    name: z.string().openapi({ description: 'The uploaded file name' }),
    pageCount: z.number().int(),
  })
  .openapi('SignatureSourceDocument');

async function readPdfPart(c: Context<AppEnv>): Promise<{ bytes: Buffer; filename: string }> {
  if (!/^multipart\/form-data\s*;/i.test(c.req.header('content-type') ?? '')) {
    throw new AppError('multipart-required', 'Upload the PDF as multipart/form-data with the part "file"');
  }
  let form;
  try {
    form = await c.req.formData();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw badRequest('malformed-multipart', 'The multipart body is malformed or incomplete');
  }
  const file = form.get('file');
  if (!(file instanceof File)) throw badRequest('file-part-missing', 'The multipart body has no file part named "file"');
  if (file.size > capOf(c)) throw documentTooLarge(capOf(c));
  const filename = file.name.trim() || 'document.pdf';
  return { bytes: Buffer.from(await file.arrayBuffer()), filename };
}

export function sourceDocumentRoutes(rt: DocumentsRuntime) {
  const app = createRouter();

  // A plain handler (a form validator would buffer without the cap), documented by hand.
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: `${BASE}/{id}/document`,
    tags,
    security: securityOf([userIdentity, tenantIdentity, writeGuard]),
    summary: 'Upload the source PDF (multipart, part "file"); sets the draft\'s document',
    description:
      'The PDF is checked before anything is stored: not a PDF, unparsable, encrypted, without pages, or with a page whose rotation is not a ' +
      'multiple of 360 ("rotated pages are not supported") is 400 `pdf-invalid`. Above `signatures.source-pdf-max-bytes` (or `docstore.max-bytes`): ' +
      "413 `document-too-large`. Stored as a SIGNATURE_ATTACHMENT of SIGNATURES owned by the definition; the draft's `document` becomes " +
      "`{ key, name, pageCount }` (audited `document_uploaded`, the definition's counter moves). 409 `definition-locked` under another user's fresh lock.",
    request: {
      params: UploadPath,
      body: { required: true, content: { 'multipart/form-data': { schema: z.object({ file: z.string().openapi({ format: 'binary' }) }) } } },
    },
    responses: { 201: jsonContent(SourceDocument, 'Stored'), ...problemResponses(400, 403, 404, 409, 413, 415, 423, 503) },
  });
  app.post(`${BASE}/:id/document`, userIdentity, tenantIdentity, writeGuard, boundedUpload, async (c) => {
    const param = UploadPath.safeParse({ id: c.req.param('id') });
    if (!param.success) throw validationFailed('param', param.error.issues);
    const { id } = param.data;
    const { deps, actor } = actorOf(c);
    const { uploaded } = await uploadSourceDocument(
      { definitions: deps, store: () => rt.storeDeps(rt.requireStore(), c.get('log')) },
      registryCaller(c),
      actor,
      id,
      () => readPdfPart(c),
    );
    return c.json(uploaded, 201);
  });

  app.openapi(
    createRoute({
      method: 'get',
      path: `${BASE}/{id}/document/{key}`,
      tags,
      summary: 'Stream a source PDF of the definition, unchanged',
      description: "404 `source-document-not-found` for a key that is not one of this definition's source PDFs.",
      middleware: reader,
      request: { params: z.object({ id: uuidParam(), key: uuidParam('key') }) },
      responses: {
        200: { description: 'The PDF', content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } } },
        206: { description: 'One byte range', content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } } },
        416: { description: 'Range not satisfiable', content: { 'application/problem+json': { schema: ProblemSchema } } },
        ...problemResponses(400, 403, 404, 409, 423, 503),
      },
    }),
    async (c) => {
      const { id, key } = c.req.valid('param');
      const { deps, actor } = actorOf(c);
      await sourceDocumentOf(deps, rt.registry, registryCaller(c), actor, id, key);
      return downloadDocument(c, rt, key);
    },
  );

  return app;
}
