// The hosted signing page (GET /sign/{token}): the link of the signing e-mail. The page answers 404
// for a token that does not open a signing session (issue 13's contract), asking the session
// loader through `SigningLinkCheck`, so it says no more than GET /api/public/sign-instance/{token}
// already says; everything else (the document, the OTP step, the refusals) comes from that API in
// the browser. Tokens carry at least 128 random bits, so the 404 is no oracle worth probing.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { AppDeps } from '../../api/deps';
import type { AppEnv } from '../../api/env';
import type { SignPageData } from '../hosted/client/sign-client';
import { hostedScriptPath } from '../hosted/form-script';
import { hostedPage, newNonce, setPageHeaders } from '../hosted/page';
import { pdfWorkerPath, servePdfWorker } from '../hosted/pdf-worker';
import { createRouter } from '../../api/openapi';
import { SIGN_PAGE_BODY, SIGN_PAGE_STYLE } from './sign-page-markup';

/**
 * Whether `token` opens a signing session now: it exists, its instance is not cancelled or closed,
 * and its recipient is armed (or has signed: the API then answers 409 on POST). The same rule as
 * the public API's 404, from the session loader of the public signing routes. `codeFirst`: the
 * recipient verifies by EMAIL_OTP, whose session the API refuses with its one 404 until a code is
 * verified, so the page must start at the code step rather than read that 404 as a closed link.
 */
export type SigningLinkCheck = (deps: AppDeps, token: string) => Promise<{ codeFirst: boolean } | null>;

const SigningTokenPath = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/)
    .openapi({ description: 'The recipient token of the signing link (base64url, at most 100 characters).' }),
});

function unavailablePage(c: Context<AppEnv>, nonce: string): Response {
  const body = html`<h1>This signing link is not available</h1>
<p>It may be incomplete, already used, cancelled, or not your turn to sign yet. Open it again from the e-mail, or ask the sender.</p>`;
  return c.html(hostedPage({ title: 'Signing link not available', nonce, body }), 404);
}

export function signPageRoutes(linkOpens: SigningLinkCheck) {
  const app = createRouter();
  const page = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/sign/{token}',
    tags: ['Signatures: hosted signing page'],
    security: [],
    summary: 'The hosted signing page (HTML; the link of the signing e-mail)',
    description:
      'A guided ceremony over `/api/public/sign-instance/{token}`: the e-mail code first when the signer must verify (EMAIL_OTP), then the ' +
      "document's pages (pdf.js) with this recipient's fields highlighted and stepped through, a drawn or typed signature and initials, " +
      'the TEXT entries, the consent, Finish. 404 for a token that opens no signing session (unknown, cancelled, not yet armed, malformed). ' +
      "Headers: `Content-Security-Policy` with a per-response nonce, `default-src 'none'`, `worker-src 'self'` (pdf.js's worker, served by hash), " +
      "`frame-ancestors 'none'`; `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, `Cache-Control: no-store`.",
    request: { params: SigningTokenPath },
    responses: { 200: page('The page; the ceremony follows in the browser'), 404: page('A token that opens no signing session') },
  });

  app.get('/sign/:token', async (c) => {
    const nonce = newNonce();
    // pdf.js renders in a worker of our own origin; nothing else may start one.
    setPageHeaders(c, nonce, "frame-ancestors 'none'", ["worker-src 'self'"]);
    const parsed = SigningTokenPath.safeParse({ token: c.req.param('token') });
    const link = parsed.success ? await linkOpens(c.get('deps'), parsed.data.token) : null;
    if (!parsed.success || !link) return unavailablePage(c, nonce);
    const data: SignPageData = { apiUrl: `/api/public/sign-instance/${parsed.data.token}`, workerSrc: await pdfWorkerPath(), codeFirst: link.codeFirst };
    const scriptSrc = await hostedScriptPath('sign');
    return c.html(hostedPage({ title: 'Review and sign', nonce, body: SIGN_PAGE_BODY, style: SIGN_PAGE_STYLE, data, scriptSrc }), 200);
  });
  app.get('/hosted/pdfjs/:file', servePdfWorker);
  return app;
}
