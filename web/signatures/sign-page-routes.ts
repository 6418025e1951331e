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
import { pdfAssetBase, servePdfAsset } from '../hosted/pdf-assets';
import { pdfWorkerPath, servePdfWorker } from '../hosted/pdf-worker';
import { createRouter } from '../../api/openapi';
import { instantInWords } from '../../integrations/mail/templates/expiry-words';
import { signedSignerView, type SignedSignerView } from '../../services/signatures/signed-copies';
import { SIGN_PAGE_BODY, SIGN_PAGE_STYLE, SIGNED_PAGE_STYLE } from './sign-page-markup';

const signedViewDeps = (c: Context<AppEnv>) => {
  const { db, settings, mailer, clock } = c.get('deps');
  return { db, settings, mailer, clock };
};

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

/** A signer's own link after they signed: the wait for the others, or the sealed PDF's download. */
function signedPage(c: Context<AppEnv>, nonce: string, view: SignedSignerView): Response {
  const body =
    view.state === 'sealed'
      ? html`<h1>Everyone has signed</h1>
<p>The document is signed by everyone and sealed. Download your copy and keep it somewhere safe.</p>
<p><a class="button" href="${view.downloadUrl}" download>Download the signed PDF</a></p>
<p class="help">The download link works until ${instantInWords(view.expiresAt, view.timeZone)}. It was also e-mailed to you.</p>`
      : html`<h1>You have signed</h1>
<p>You have signed. The completed document will be sent when everyone has signed.</p>
<p class="help">You can close this page: the e-mail with the signed PDF will reach you at the address this link was sent to.</p>`;
  return c.html(hostedPage({ title: view.state === 'sealed' ? 'Signed by everyone' : 'You have signed', nonce, body, style: SIGNED_PAGE_STYLE }), 200);
}

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
      'the TEXT entries, the consent, Finish. A recipient who has signed sees "You have signed" until the campaign is sealed, then the download ' +
      'of the sealed PDF (`/api/public/signed-copy/{token}`, the link of the completion e-mail). ' +
      '404 for a token that opens no signing session (unknown, cancelled, expired, not yet armed, malformed, or signed with an expired copy link). ' +
      "pdf.js's standard fonts, CMaps, wasm decoders and ICC profiles come from `/hosted/pdfjs/<pdfjs-dist version>/<folder>/<file>` (same origin). " +
      "Headers: `Content-Security-Policy` with a per-response nonce, `default-src 'none'`, `worker-src 'self'` (pdf.js's worker, served by hash), `font-src 'self'` (its standard fonts), " +
      "`frame-ancestors 'none'`; `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, `Cache-Control: no-store`.",
    request: { params: SigningTokenPath },
    responses: { 200: page('The page; the ceremony follows in the browser'), 404: page('A token that opens no signing session') },
  });

  app.get('/sign/:token', async (c) => {
    const nonce = newNonce();
    // pdf.js renders in a worker of our own origin (nothing else may start one) and loads the
    // standard fonts a PDF names without embedding from our origin too.
    setPageHeaders(c, nonce, "frame-ancestors 'none'", ["worker-src 'self'", "font-src 'self'"]);
    const parsed = SigningTokenPath.safeParse({ token: c.req.param('token') });
    const signed = parsed.success ? await signedSignerView(signedViewDeps(c), parsed.data.token) : null;
    if (signed) return signedPage(c, nonce, signed);
    const link = parsed.success ? await linkOpens(c.get('deps'), parsed.data.token) : null;
    if (!parsed.success || !link) return unavailablePage(c, nonce);
    const data: SignPageData = {
      apiUrl: `/api/public/sign-instance/${parsed.data.token}`,
      workerSrc: await pdfWorkerPath(),
      assetBase: pdfAssetBase,
      codeFirst: link.codeFirst,
    };
    const scriptSrc = await hostedScriptPath('sign');
    return c.html(hostedPage({ title: 'Review and sign', nonce, body: SIGN_PAGE_BODY, style: SIGN_PAGE_STYLE, data, scriptSrc }), 200);
  });
  app.get('/hosted/pdfjs/:file', servePdfWorker);
  app.get('/hosted/pdfjs/:version/:folder/:file', servePdfAsset);
  return app;
}
