// The signed copy (issue 22 §2): GET /api/public/signed-copy/{token}, the link of the completion
// e-mail and of a signer's own signing page once the campaign is sealed. No identity header: the
// copy token (one per signer and one for the sender) authorises the download, until it expires
// after `signatures.copy-link-days`. Streamed from the document store as the campaign's own
// download is; every refusal is the signing links' one 404.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Readable } from 'node:stream';
import { contentDisposition } from '../../domain/documents/content-disposition';
import type { SigningDocs } from '../../services/signatures/campaign-deps';
import { openSignedCopy } from '../../services/signatures/signed-copies';
import type { DocumentsRuntime } from '../documents/runtime';
import type { AppEnv } from '../env';
import { createRouter, problemResponses } from '../openapi';
import { SigningTokenPath } from './instance-schemas';

const PDF = { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } };

export function publicCopyRoutes(rt: DocumentsRuntime) {
  const app = createRouter();
  const docsOf = (c: Context<AppEnv>): SigningDocs => ({ registry: rt.registry, store: rt.store, storeDeps: () => rt.storeDeps(rt.requireStore(), c.get('log')) });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/public/signed-copy/{token}',
      tags: ['Signatures: public signing'],
      security: [],
      summary: 'The sealed PDF by the copy token of a completion e-mail',
      description:
        'Mailed to every signer and to the sender when the campaign is SEALED. One and the same 404 `signing-link-not-found` for an unknown token, ' +
        'a token past its expiry (`signatures.copy-link-days` after the seal), and a campaign that is not sealed. ' +
        '`Content-Disposition: attachment`, `Cache-Control: no-store`, `Referrer-Policy: no-referrer`.',
      request: { params: SigningTokenPath },
      responses: { 200: { description: 'The sealed PDF', content: PDF }, ...problemResponses(400, 404, 503) },
    }),
    async (c) => {
      const { db, settings, mailer, clock } = c.get('deps');
      const copy = await openSignedCopy({ db, settings, mailer, clock, logger: c.get('log') }, docsOf(c), c.req.valid('param').token);
      return c.body(Readable.toWeb(copy.body) as unknown as ReadableStream, 200, {
        'Content-Type': 'application/pdf',
        ...(copy.document.sizeBytes !== null ? { 'Content-Length': String(copy.document.sizeBytes) } : {}),
        'Content-Disposition': contentDisposition(copy.filename),
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      }) as never;
    },
  );
  return app;
}
