// The embed attachment routes (spec Documents: POST/GET/DELETE /api/public/documents, POST .../link).
// No identity header: the embed token names tenant and form, the browser-minted processRef names
// the session; the registry's `embed` principal keeps the session to its own FORM_ATTACHMENT rows.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { removeDocument } from '../../services/documents/remove-document';
import {
  assertSessionOpen,
  linkSession,
  openEmbedSession,
  releaseAttachment,
  reserveAttachment,
  sessionDocument,
  type EmbedSession,
} from '../../services/forms/embed-attachments';
import type { AppEnv } from '../env';
import { createRouter, jsonBody, jsonContent, problemResponses, uuidParam } from '../openapi';
import type { DocumentsRuntime } from './runtime';
import { EmbedHeaders, embedToken, LinkBody, LinkResult, PublicAttachment, publicAttachment } from './public-schemas';
import { uploadDocument } from './upload';
import { pairedRateLimit } from '../middleware/paired-rate-limit';

const tags = ['Forms: embed attachments'];
const BASE = '/api/public/documents';

/** Uploads take storage: budgets per client address and per embed token, before any byte is read. */
const uploadRateLimited = pairedRateLimit({
  prefix: 'forms-embed-attachment',
  perIpPerMinute: (s) => s['forms.rate-limit.attachments-per-ip-per-minute'],
  perTokenPerMinute: (s) => s['forms.rate-limit.attachments-per-token-per-minute'],
  refusal: 'Too many attachment uploads; retry later',
  token: (c) => c.req.header('x-embed-token') ?? '',
});

const session = (c: Context<AppEnv>, processRef = c.req.header('x-embed-session')): Promise<EmbedSession> => {
  const { db, settings } = c.get('deps');
  return openEmbedSession({ db, settings }, embedToken(c.req.header('x-embed-token')), processRef, c.get('requestId'));
};

export function publicDocumentRoutes(rt: DocumentsRuntime) {
  const app = createRouter();

  // A plain handler like POST /api/documents (a body validator would buffer the file).
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: BASE,
    tags,
    security: [],
    summary: 'Upload an attachment of the embed session (multipart: one part "file")',
    description:
      'The file is stored as a FORMS `FORM_ATTACHMENT` under the session processRef. One slot of `forms.embed-attachments-per-session` ' +
      'is taken before any byte is stored (409 `embed-attachment-cap-reached` when full; a failed upload gives it back); the file is capped at ' +
      'the lower of `forms.embed-attachment-max-bytes` and `docstore.max-bytes`, counted on the stream (413). After /link: 409 `embed-attachments-linked`. ' +
      'Uploads are budgeted per client address and per embed token per minute (`forms.rate-limit.attachments-per-ip-per-minute`, `...-per-token-per-minute`): above either, 429 `rate-limited` with Retry-After.',
    request: {
      headers: EmbedHeaders,
      body: { required: true, content: { 'multipart/form-data': { schema: z.object({ file: z.string().openapi({ format: 'binary' }) }) } } },
    },
    responses: { 201: jsonContent(PublicAttachment, 'Stored; READY, QUARANTINED, or PENDING while a scan retry runs'), ...problemResponses(400, 404, 409, 413, 429, 503) },
  });
  app.post(BASE, uploadRateLimited, async (c) => {
    const s = await session(c);
    const { db, settings } = c.get('deps');
    await reserveAttachment(db, s, settings['forms.embed-attachments-per-session']);
    try {
      return await uploadDocument(c, rt, {
        caller: s.caller,
        maxBytes: Math.min(settings['forms.embed-attachment-max-bytes'], settings['docstore.max-bytes']),
        fieldsOf: () => ({ processRef: s.caller.processRef, kind: 'FORM_ATTACHMENT', capability: 'FORMS' }),
        location: (view) => `${BASE}/${view.id}`,
        present: publicAttachment,
      });
    } catch (err) {
      await releaseAttachment(db, s.caller);
      throw err;
    }
  });

  app.openapi(
    createRoute({
      method: 'get',
      path: BASE,
      tags,
      security: [],
      summary: "The embed session's attachments, oldest first (deleted ones left out)",
      request: { headers: EmbedHeaders },
      responses: { 200: jsonContent(z.object({ items: z.array(PublicAttachment) }).openapi('EmbedAttachmentList')), ...problemResponses(400, 404) },
    }),
    async (c) => {
      const { caller } = await session(c);
      const { settings } = c.get('deps');
      const page = await rt.registry.list(caller, { selector: { processRef: caller.processRef }, limit: settings['forms.embed-attachments-per-session'] });
      return c.json({ items: page.items.map(publicAttachment) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: `${BASE}/{docId}`,
      tags,
      security: [],
      summary: 'Remove an attachment of the session before submit (its slot is given back)',
      description: "404 `document-not-found` for a document outside the session (another session's, another tenant's, unknown); 409 `embed-attachments-linked` after /link.",
      request: { headers: EmbedHeaders, params: z.object({ docId: uuidParam('docId') }) },
      responses: { 200: jsonContent(PublicAttachment, 'Deleted; status DELETED'), ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const s = await session(c);
      const { db } = c.get('deps');
      await assertSessionOpen(db, s);
      const current = await sessionDocument(rt.registry, s.caller, c.req.valid('param').docId);
      const removed = await removeDocument(rt.removeDeps(c.get('log')), s.caller, current.id, current.version);
      await releaseAttachment(db, s.caller);
      return c.json(publicAttachment(removed), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${BASE}/link`,
      tags,
      security: [],
      summary: "Bind the session's READY attachments to the instance its submit created (once)",
      description:
        'Sets the instance as owner (`ownerEntityId`) of every READY attachment of the session; the intake process mirrors them to its case. ' +
        'The instance must be an EMBED instance of this token\'s form whose submit carried this processRef (else 404 `form-instance-not-found`); ' +
        'a second link is 409 `embed-attachments-linked`, and so are later uploads and deletions of the session.',
      request: { headers: EmbedHeaders.pick({ 'x-embed-token': true }), body: jsonBody(LinkBody) },
      responses: { 200: jsonContent(LinkResult), ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const s = await session(c, body.processRef);
      return c.json(await linkSession(c.get('deps').db, s, body.instanceId), 200);
    },
  );

  return app;
}
