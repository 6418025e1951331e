// The hosted respond page (spec: the outbound link, GET /respond/{token}). Public: the instance
// token is in the URL, the recipient's one-time code opens the form. The page answers 200 for every
// well-formed token: it cannot tell whether the token exists without telling a guesser, so the
// recipient API decides (its one 404) once the page calls it. A malformed token gets the 404 page.
import { z } from '@hono/zod-openapi';
import { html } from 'hono/html';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/env';
import type { RespondPageData } from '../hosted/client/respond-client';
import { hostedScriptPath } from '../hosted/form-script';
import { hostedPage, newNonce, setPageHeaders } from '../hosted/page';
import { createRouter } from '../../api/openapi';
import { RecipientTokenPath } from '../../api/vocabulary';

/** Between the recipient's last keystroke and the autosave. */
const AUTOSAVE_MS = 800;

const CODE_STEP = html`<section id="code-step">
<h1>Open your form</h1>
<p>To open this form, prove that the e-mail it was sent to is yours: we e-mail you a 6-digit code.</p>
<p><button type="button" id="send-code">E-mail me a code</button></p>
<p class="form-status" id="code-status" role="status" aria-live="polite"></p>
<form id="code-form" novalidate>
<label for="code">Code from the e-mail</label>
<p class="help" id="code-help">It works once, for 10 minutes.</p>
<input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" aria-describedby="code-help code-error">
<p class="error" id="code-error" hidden></p>
<p><button type="submit">Open the form</button></p>
</form>
</section>
<div id="form-step" hidden></div>`;

function notFoundPage(c: Context<AppEnv>, nonce: string): Response {
  const body = html`<h1>This form is not available</h1><p>The link may be incomplete. Open it again from the e-mail.</p>`;
  return c.html(hostedPage({ title: 'Form not available', nonce, body }), 404);
}

export function respondPageRoutes() {
  const app = createRouter();
  const page = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/respond/{token}',
    tags: ['Forms: hosted respond page'],
    security: [],
    summary: 'The hosted page of an outbound form (HTML; the link of the e-mail)',
    description:
      'Starts at the code step (`POST /api/public/form-instances/{token}/otp`, then `/verify`; a 429 within the resend cooldown is said on the page), ' +
      'then renders the form with its prefill and saved answers (PREPARER fields read-only, each with a note saying why), uploads file fields ' +
      'through `/api/public/form-instances/{token}/documents`, autosaves (`PATCH`) and submits. Answers 200 for every well-formed token, whether or not it exists ' +
      '(the recipient API decides, with its one 404); a malformed token gets the 404 page. Headers: `Content-Security-Policy` with a per-response ' +
      "nonce, `default-src 'none'`, `frame-ancestors 'none'`; `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, `Cache-Control: no-store`.",
    request: { params: RecipientTokenPath },
    responses: { 200: page('The code step; the form follows in the page'), 404: page('A malformed token') },
  });

  app.get('/respond/:token', async (c) => {
    const nonce = newNonce();
    setPageHeaders(c, nonce, "frame-ancestors 'none'");
    const parsed = RecipientTokenPath.safeParse({ token: c.req.param('token') });
    if (!parsed.success) return notFoundPage(c, nonce);
    const data: RespondPageData = { apiUrl: `/api/public/form-instances/${parsed.data.token}`, autosaveMs: AUTOSAVE_MS };
    return c.html(hostedPage({ title: 'Open your form', nonce, body: CODE_STEP, data, scriptSrc: await hostedScriptPath('respond') }), 200);
  });
  return app;
}
