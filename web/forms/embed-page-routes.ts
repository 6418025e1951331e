// The hosted embed page (spec: GET /embed/{token}), its script, and the embed SDK (/embed.js).
// Public: the token is the credential. Every reason a token has no form (unknown, badly signed,
// rotated, unpublished, retired, deleted, outbound) gets one and the same 404 page.
import { z } from '@hono/zod-openapi';
import { html } from 'hono/html';
import type { Context } from 'hono';
import { AppError } from '../../domain/errors';
import { frameAncestors, sanitiseEmbedOrigins } from '../../domain/forms/embed-origins';
import { EMBED_TOKEN_PATTERN, MAX_EMBED_TOKEN_LENGTH } from '../../domain/forms/embed-token';
import { repairFormSchema } from '../../domain/forms/schema-repair';
import { resolveEmbeddedForm, type EmbeddedForm } from '../../services/forms/embed-tokens';
import type { AppEnv } from '../../api/env';
import type { HostedFormData } from '../hosted/client/form-client';
import { formMarkup } from '../hosted/form-markup';
import { hostedScriptPath, serveHostedScript } from '../hosted/form-script';
import { hostedPage, newNonce, setPageHeaders } from '../hosted/page';
import { createRouter } from '../../api/openapi';
import { credentialParam } from '../../api/vocabulary';
import { serveEmbedSdk } from './embed-sdk';

async function embeddedForm(c: Context<AppEnv>, token: string): Promise<EmbeddedForm | undefined> {
  if (token.length > MAX_EMBED_TOKEN_LENGTH) return undefined;
  const { db, settings } = c.get('deps');
  try {
    return await resolveEmbeddedForm({ db, settings }, token);
  } catch (err) {
    if (err instanceof AppError && err.code === 'embed-form-not-found') return undefined;
    throw err;
  }
}

/** Framed by nobody: it has nothing to offer a host page. */
function notFoundPage(c: Context<AppEnv>): Response {
  const nonce = newNonce();
  setPageHeaders(c, nonce, "frame-ancestors 'none'");
  const body = html`<h1>This form is not available</h1><p>The link may be out of date, or the form is no longer published.</p>`;
  return c.html(hostedPage({ title: 'Form not available', nonce, body }), 404);
}

export function embedPageRoutes() {
  const app = createRouter();
  const tags = ['Forms: hosted embed page'];
  const page = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/embed/{token}',
    tags,
    security: [],
    summary: 'The hosted form of an embed token (HTML, framed by the embed SDK)',
    description:
      'Server-rendered; validates in the browser with the server\'s own rules, uploads file fields through `/api/public/documents`, submits to ' +
      '`/api/public/embed/{token}/submit`. Headers: `Content-Security-Policy` with a per-response script and style nonce, `default-src \'none\'` ' +
      'and `frame-ancestors` from the sanitised `allowedEmbedOrigins` (`\'none\'` when none), `X-Content-Type-Options: nosniff`, ' +
      '`Referrer-Policy: no-referrer`, `Cache-Control: no-store`. Every token without a form gets the same 404 page (framed by nobody).',
    request: { params: z.object({ token: credentialParam('token', EMBED_TOKEN_PATTERN, MAX_EMBED_TOKEN_LENGTH) }) },
    responses: { 200: page('The form page'), 404: page('The one "not available" page') },
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/embed.js',
    tags,
    security: [],
    summary: 'The embed SDK (text/javascript; README "Embedding a form")',
    responses: { 200: { description: 'The script', content: { 'text/javascript': { schema: z.string() } } }, 304: { description: 'Not modified (ETag)' } },
  });

  app.get('/embed/:token', async (c) => {
    const token = c.req.param('token');
    const found = await embeddedForm(c, token);
    if (!found) return notFoundPage(c);
    const schema = repairFormSchema(found.version.schema);
    const origins = found.definition.allowedEmbedOrigins;
    const nonce = newNonce();
    setPageHeaders(c, nonce, frameAncestors(origins));
    const data: HostedFormData = {
      token,
      schema,
      allowedOrigins: sanitiseEmbedOrigins(origins).origins,
      submitUrl: `/api/public/embed/${encodeURIComponent(token)}/submit`,
      documentsUrl: '/api/public/documents',
    };
    return c.html(hostedPage({ title: schema.title, nonce, body: formMarkup(schema), data, scriptSrc: await hostedScriptPath('form') }), 200);
  });

  app.get('/hosted/:file', serveHostedScript);
  app.get('/embed.js', serveEmbedSdk);
  return app;
}
