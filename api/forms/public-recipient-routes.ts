// The recipient's public API (spec: POST /api/public/form-instances/{token}/otp, /verify; GET,
// PATCH /{token}, POST /{token}/submit). No identity header: the instance token names the form,
// the access token from verify opens it. Every refusal of either token is the same 404.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { requestCode, verifyCode } from '../../services/forms/recipient-access';
import { autosaveRecipientForm, readRecipientForm, submitRecipientForm } from '../../services/forms/recipient-form';
import { boundedBody } from '../body';
import type { AppEnv } from '../env';
import { codeRateLimit } from './code-rate-limit';
import { createRouter, jsonBody, jsonContent, problemResponses, raises } from '../openapi';
import { AccessHeader, AccessView, AutosaveBody, BEARER, RecipientFormView, RecipientSubmitBody, VerifyBody } from './outbound-schemas';
import { RecipientTokenPath } from '../vocabulary';

/** Code requests and verifications share one pair of budgets (per address, per instance token). */
const rateLimited = codeRateLimit('forms-recipient');

const bounded = raises(
  boundedBody((c) => c.get('deps').settings['forms.max-submission-bytes'], 'Recipient answers'),
  'payload-too-large',
);

const recipientDeps = (c: Context<AppEnv>) => {
  const { db, settings, mailer, clock, logger } = c.get('deps');
  return { db, settings, mailer, clock, logger };
};

const bearer = (header: string | undefined) => {
  const match = BEARER.exec(header ?? '');
  return match?.[1];
};

const NOT_FOUND = 'One and the same 404 `recipient-form-not-found` for an unknown, expired or closed instance token and for a missing, wrong or expired access token.';

export function publicRecipientRoutes() {
  const app = createRouter();
  const tags = ['Forms: recipient'];
  const base = '/api/public/form-instances/{token}';

  app.openapi(
    createRoute({
      method: 'post',
      path: `${base}/otp`,
      tags,
      summary: 'Request a one-time code by e-mail',
      description:
        '202 with no body, whether or not the token exists: for an open instance (SENT, OPENED, not expired) a 6-digit code is e-mailed ' +
        'to the recipient, replacing any earlier one. Asked again within `forms.otp.resend-cooldown-seconds` of the last request for the same ' +
        'token: 429 `rate-limited` with `Retry-After` (the seconds left) and nothing sent; the cooldown is kept for every token asked about, ' +
        'known or not, so this answer too says nothing about whether the token exists. Also rate-limited per address and per token with the ' +
        'verifications (429 `rate-limited` with Retry-After).',
      security: [],
      middleware: [rateLimited],
      request: { params: RecipientTokenPath },
      responses: { 202: { description: 'Accepted' }, ...problemResponses(400) },
    }),
    async (c) => {
      await requestCode(recipientDeps(c), c.req.valid('param').token);
      return c.body(null, 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${base}/verify`,
      tags,
      summary: 'Verify the code: an access token for the form (the instance becomes OPENED)',
      description:
        `A wrong code counts an attempt; after \`forms.otp.max-attempts\` the code is dead and a new one must be requested. A code works once. ${NOT_FOUND} ` +
        'A new verification replaces the previous access token. Rate-limited with the code requests.',
      security: [],
      middleware: [rateLimited],
      request: { params: RecipientTokenPath, body: jsonBody(VerifyBody) },
      responses: { 200: jsonContent(AccessView), ...problemResponses(400, 404) },
    }),
    async (c) => c.json(await verifyCode(recipientDeps(c), c.req.valid('param').token, c.req.valid('json').code), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: base,
      tags,
      summary: 'The form to answer: pinned schema, prefill, saved answers, roles, state',
      description: `Needs \`Authorization: Bearer <accessToken>\`. ${NOT_FOUND}`,
      security: [],
      request: { params: RecipientTokenPath, headers: AccessHeader },
      responses: { 200: jsonContent(RecipientFormView), ...problemResponses(400, 404) },
    }),
    async (c) => c.json(await readRecipientForm(recipientDeps(c), c.req.valid('param').token, bearer(c.req.valid('header').authorization)), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: base,
      tags,
      summary: 'Autosave the answers',
      description:
        `Needs the access token. Keys that are not value-holding fields are dropped; nothing else is validated until submit. A PREPARER field with a value ` +
        `other than the sender's is 400 \`field-not-editable\`. 409 \`instance-state-conflict\` once submitted. ${NOT_FOUND}`,
      security: [],
      middleware: [bounded],
      request: { params: RecipientTokenPath, headers: AccessHeader, body: jsonBody(AutosaveBody) },
      responses: { 200: jsonContent(RecipientFormView), ...problemResponses(400, 404, 409, 413) },
    }),
    async (c) =>
      c.json(await autosaveRecipientForm(recipientDeps(c), c.req.valid('param').token, bearer(c.req.valid('header').authorization), c.req.valid('json').data), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${base}/submit`,
      tags,
      summary: 'Submit: the body over the saved answers over the prefill, validated against the pinned version',
      description:
        'Needs the access token. 400 `validation-failed` (paths `data.<key>`), 400 `field-not-editable`, 409 `instance-state-conflict` unless SENT or ' +
        `OPENED. SUBMITTED and the intake process queued in one transaction. ${NOT_FOUND}`,
      security: [],
      middleware: [bounded],
      request: {
        params: RecipientTokenPath,
        headers: AccessHeader,
        body: { required: false, content: { 'application/json': { schema: RecipientSubmitBody } } },
      },
      responses: { 200: jsonContent(RecipientFormView), ...problemResponses(400, 404, 409, 413) },
    }),
    async (c) => {
      const body = (c.req.valid('json') ?? {}) as z.infer<typeof RecipientSubmitBody>;
      return c.json(await submitRecipientForm(recipientDeps(c), c.req.valid('param').token, bearer(c.req.valid('header').authorization), body.data), 200);
    },
  );
  return app;
}
