// The recipient's attachments (docs/forms.md "Recipient attachments"): the respond page's file
// fields upload, list and remove through these, with the access token from verify, as an embed
// session does through /api/public/documents with its embed token.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { removeDocument } from '../../services/documents/remove-document';
import {
  listRecipientDocuments,
  openRecipientSession,
  recipientDocument,
  releaseRecipientAttachment,
  reserveRecipientAttachment,
} from '../../services/forms/recipient-attachments';
import type { DocumentsRuntime } from '../documents/runtime';
import { PublicAttachment, publicAttachment } from '../documents/public-schemas';
import { uploadDocument } from '../documents/upload';
import type { AppEnv } from '../env';
import { pairedRateLimit } from '../middleware/paired-rate-limit';
import { createRouter, jsonContent, problemResponses, uuidParam } from '../openapi';
import { RecipientTokenPath } from '../vocabulary';
import { AccessHeader, BEARER } from './outbound-schemas';

const BASE = '/api/public/form-instances/{token}/documents';

/** Uploads take storage: the embed attachments' budgets, per client address and per instance token. */
const uploadRateLimited = pairedRateLimit({
  prefix: 'forms-recipient-attachment',
  perIpPerMinute: (s) => s['forms.rate-limit.attachments-per-ip-per-minute'],
  perTokenPerMinute: (s) => s['forms.rate-limit.attachments-per-token-per-minute'],
  refusal: 'Too many attachment uploads; retry later',
  token: (c) => c.req.param('token') ?? '',
});

const NOT_FOUND = 'One and the same 404 `recipient-form-not-found` for an unknown, expired or closed instance token and for a missing, wrong or expired access token.';

function session(c: Context<AppEnv>, change: boolean) {
  const { db, settings, mailer, clock, logger } = c.get('deps');
  const token = RecipientTokenPath.safeParse({ token: c.req.param('token') });
  const accessToken = BEARER.exec(c.req.header('authorization') ?? '')?.[1];
  return openRecipientSession({ db, settings, mailer, clock, logger }, {
    token: token.success ? token.data.token : '',
    accessToken,
    requestId: c.get('requestId'),
    change,
  });
}

export function publicRecipientDocumentRoutes(rt: DocumentsRuntime) {
  const app = createRouter();
  const tags = ['Forms: recipient'];

  // A plain handler like POST /api/public/documents (a body validator would buffer the file).
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: BASE,
    tags,
    security: [],
    summary: "Upload a file for one of the form's file fields (multipart: one part \"file\")",
    description:
      'Needs the access token; the form must be SENT or OPENED (409 `instance-state-conflict` otherwise). Stored as a FORMS `FORM_ATTACHMENT` ' +
      "under the instance's case processRef and owned by the instance; its id goes into the file field's value (autosave, submit). One slot of " +
      '`forms.embed-attachments-per-session` per instance is taken before any byte is stored (409 `embed-attachment-cap-reached`); the file is ' +
      'capped at the lower of `forms.embed-attachment-max-bytes` and `docstore.max-bytes` (413). Budgeted like embed uploads per client address ' +
      `and per instance token (429 \`rate-limited\` with Retry-After). ${NOT_FOUND}`,
    request: {
      params: RecipientTokenPath,
      headers: AccessHeader,
      body: { required: true, content: { 'multipart/form-data': { schema: z.object({ file: z.string().openapi({ format: 'binary' }) }) } } },
    },
    responses: { 201: jsonContent(PublicAttachment, 'Stored; READY, QUARANTINED, or PENDING while a scan retry runs'), ...problemResponses(400, 404, 409, 413, 429, 503) },
  });
  app.post(BASE.replace('{token}', ':token'), uploadRateLimited, async (c) => {
    const s = await session(c, true);
    const { db, settings } = c.get('deps');
    await reserveRecipientAttachment(db, s, settings['forms.embed-attachments-per-session']);
    try {
      return await uploadDocument(c, rt, {
        caller: s.caller,
        maxBytes: Math.min(settings['forms.embed-attachment-max-bytes'], settings['docstore.max-bytes']),
        fieldsOf: () => ({ processRef: s.caller.processRef, kind: 'FORM_ATTACHMENT', capability: 'FORMS', ownerEntityId: s.instance.id }),
        location: (view) => `/api/public/form-instances/${c.req.param('token')}/documents/${view.id}`,
        present: publicAttachment,
      });
    } catch (err) {
      await releaseRecipientAttachment(db, s);
      throw err;
    }
  });

  app.openapi(
    createRoute({
      method: 'get',
      path: BASE,
      tags,
      security: [],
      summary: "The form's uploaded files, oldest first (removed ones left out)",
      description: `Needs the access token; readable in every state the form is (a sent form shows what it was sent with). ${NOT_FOUND}`,
      request: { params: RecipientTokenPath, headers: AccessHeader },
      responses: { 200: jsonContent(z.object({ items: z.array(PublicAttachment) }).openapi('RecipientAttachmentList')), ...problemResponses(400, 404) },
    }),
    async (c) => {
      const s = await session(c, false);
      const items = await listRecipientDocuments(rt.registry, s, c.get('deps').settings['forms.embed-attachments-per-session']);
      return c.json({ items: items.map(publicAttachment) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: `${BASE}/{docId}`,
      tags,
      security: [],
      summary: 'Remove an uploaded file before submit (its slot is given back)',
      description:
        "404 `document-not-found` for a document that is not this form's (another form's under the same case, another tenant's, unknown); " +
        `409 \`document-already-deleted\` for a file removed before, \`instance-state-conflict\` once the form is submitted. ${NOT_FOUND}`,
      request: { params: RecipientTokenPath.extend({ docId: uuidParam('docId') }), headers: AccessHeader },
      responses: { 200: jsonContent(PublicAttachment, 'Deleted; status DELETED'), ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const s = await session(c, true);
      const current = await recipientDocument(rt.registry, s, c.req.valid('param').docId);
      const removed = await removeDocument(rt.removeDeps(c.get('log')), s.caller, current.id, current.version);
      await releaseRecipientAttachment(c.get('deps').db, s);
      return c.json(publicAttachment(removed), 200);
    },
  );
  return app;
}
