// Public signing (issue 13 §3, the API): the recipient's session and signature, and EMAIL_OTP's
// code and verify. No identity header: the signing token names the recipient. The legacy paths
// `/api/public/sign/{token}` are the same handlers. Every refusal of a token is one 404 body.
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { SigningDocs } from '../../services/signatures/campaign-deps';
import { openSession, sign } from '../../services/signatures/public-signing';
import { requestSigningCode, verifySigningCode } from '../../services/signatures/signer-otp';
import { boundedBody } from '../body';
import type { DocumentsRuntime } from '../documents/runtime';
import type { AppEnv } from '../env';
import { AccessView, BEARER, VerifyBody } from '../forms/outbound-schemas';
import { codeRateLimit } from '../forms/code-rate-limit';
import { clientContext } from '../middleware/client-context';
import { createRouter, jsonBody, jsonContent, problemResponses, raises } from '../openapi';
import { SessionView, SignBody, SignedView, SignerAccessHeader, SigningTokenPath } from './instance-schemas';

/** Code requests and verifications share the forms recipients' budgets (per address, per token). */
const rateLimited = codeRateLimit('signatures-signer');

/** Two PNGs at the cap in base64, typed values and room for the envelope. */
const bounded = raises(
  boundedBody((c) => Math.ceil(c.get('deps').settings['signatures.signature-png-max-bytes'] / 3) * 8 + 1024 * 1024, 'Signature submissions'),
  'payload-too-large',
);

const signingDeps = (c: Context<AppEnv>) => {
  const { db, settings, mailer, clock } = c.get('deps');
  return { db, settings, mailer, clock, logger: c.get('log') };
};

const docsOf = (c: Context<AppEnv>, rt: DocumentsRuntime): SigningDocs => ({
  registry: rt.registry,
  store: rt.store,
  storeDeps: () => rt.storeDeps(rt.requireStore(), c.get('log')),
});

const bearer = (header: string | undefined) => BEARER.exec(header ?? '')?.[1];

const NOT_FOUND =
  'One and the same 404 `signing-link-not-found` for an unknown token, a token of a cancelled, completed or expired campaign (expired by time too), ' +
  'a recipient not armed yet, and (EMAIL_OTP) a missing, wrong or expired access token.';

export function publicSignRoutes(rt: DocumentsRuntime) {
  const app = createRouter();
  const tags = ['Signatures: public signing'];

  for (const [base, legacy] of [
    ['/api/public/sign-instance/{token}', false],
    ['/api/public/sign/{token}', true],
  ] as const) {
    const route = <R extends RouteConfig>(r: R) => createRoute({ ...r, tags, security: [], ...(legacy ? { summary: `Legacy: ${r.summary}` } : {}) });

    app.openapi(
      route({
        method: 'get',
        path: base,
        summary: 'The signing session: the PDF, this recipient\'s fields, merged variables, signer, routing position',
        description:
          `The first read marks the recipient R_OPENED and the campaign OPENED (audited \`opened\` with the client's address, user agent, IP-risk and geo). ` +
          `EMAIL_OTP recipients send \`Authorization: Bearer <accessToken>\` from verify. ${NOT_FOUND}`,
        request: { params: SigningTokenPath, headers: SignerAccessHeader },
        responses: { 200: jsonContent(SessionView), ...problemResponses(400, 404, 503) },
      }),
      async (c) =>
        c.json(await openSession(signingDeps(c), docsOf(c, rt), c.req.valid('param').token, bearer(c.req.valid('header').authorization), clientContext(c)), 200),
    );

    app.openapi(
      route({
        method: 'post',
        path: base,
        summary: 'Sign: consent, a drawn or typed signature, optional initials and TEXT values',
        description:
          'One of `signaturePng` / `typedName` when the recipient has a SIGNATURE field; PNGs must be whole (chunk CRCs, pixels that inflate to the declared ' +
          'rows, not interlaced), at most `signatures.signature-png-max-bytes` and 4096 pixels a side and 4,194,304 in all, and are stored in the ' +
          'document store; `fieldValues` fill only this recipient\'s TEXT fields; `consent` must be true (each 400 `signing-input-invalid`). Signing twice: ' +
          '409 `signature-state-conflict`. R_SIGNED, the `consented` and `signed` audit events, COMPLETED after the last signer, and the ceremony\'s signal ' +
          `row commit together. ${NOT_FOUND}`,
        middleware: [bounded],
        request: { params: SigningTokenPath, headers: SignerAccessHeader, body: jsonBody(SignBody) },
        responses: { 200: jsonContent(SignedView), ...problemResponses(400, 404, 409, 413, 503) },
      }),
      async (c) =>
        c.json(
          await sign(signingDeps(c), docsOf(c, rt), c.req.valid('param').token, bearer(c.req.valid('header').authorization), c.req.valid('json'), clientContext(c)),
          200,
        ),
    );

    app.openapi(
      route({
        method: 'post',
        path: `${base}/otp`,
        summary: 'EMAIL_OTP: e-mail a one-time code',
        description:
          'Always 202 with no body, whether or not the token exists. For a reachable EMAIL_OTP recipient a 6-digit code is e-mailed (the forms rules: ' +
          '`forms.otp.ttl-minutes`, `forms.otp.resend-cooldown-seconds`). Rate-limited (429 `rate-limited` with Retry-After).',
        middleware: [rateLimited],
        request: { params: SigningTokenPath },
        responses: { 202: { description: 'Accepted' }, ...problemResponses(400) },
      }),
      async (c) => {
        await requestSigningCode(signingDeps(c), c.req.valid('param').token);
        return c.body(null, 202);
      },
    );

    app.openapi(
      route({
        method: 'post',
        path: `${base}/verify`,
        summary: 'EMAIL_OTP: verify the code for an access token',
        description: `A wrong code counts an attempt; after \`forms.otp.max-attempts\` the code is dead. A code works once; audited \`otp_verified\`. ${NOT_FOUND}`,
        middleware: [rateLimited],
        request: { params: SigningTokenPath, body: jsonBody(VerifyBody) },
        responses: { 200: jsonContent(AccessView), ...problemResponses(400, 404) },
      }),
      async (c) => c.json(await verifySigningCode(signingDeps(c), c.req.valid('param').token, c.req.valid('json').code, clientContext(c)), 200),
    );
  }
  return app;
}
