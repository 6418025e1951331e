// The public embed API (spec: GET /api/public/embed/{token}, POST .../submit, and the SDK's frame
// check). No identity header: the tenant comes from the signed token. Every refusal of a token is
// the same 404.
import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { EMBED_TOKEN_PATTERN, MAX_EMBED_TOKEN_LENGTH } from '../../domain/forms/embed-token';
import { settingDefs } from '../../domain/settings';
import { checkEmbedFrame, readEmbeddedForm, submitEmbedded } from '../../services/forms/public-intake';
import { boundedBody } from '../body';
import { pairedRateLimit } from '../middleware/paired-rate-limit';
import { DATA_BOUNDS } from './render-routes';
import { createRouter, jsonBody, jsonContent, problemResponses, raises } from '../openapi';
import { boundedMap, credentialParam, text } from '../vocabulary';

const TokenPath = z.object({
  token: credentialParam('token', EMBED_TOKEN_PATTERN, MAX_EMBED_TOKEN_LENGTH).openapi({
    description: 'The embed token (`GET /api/form-definitions/{id}/embed-token`); any other value is the one 404',
  }),
});

const EmbeddedForm = z
  .object({
    code: z.string(),
    version: z.number().int().openapi({ description: 'The published version' }),
    title: z.string(),
    schema: z.record(z.string(), z.unknown()).openapi({ description: 'The form schema of the published version (docs/forms.md "Form schema")' }),
  })
  .openapi('EmbeddedForm');

/**
 * The size of a submission is `forms.max-submission-bytes`, counted on the stream before anything
 * is parsed; the data's own byte bound is that setting's ceiling so the setting alone decides size.
 * Structure is bounded like a submission the PDF renderer takes.
 */
const SUBMISSION_BOUNDS = { ...DATA_BOUNDS, maxBytes: (settingDefs['forms.max-submission-bytes'].schema as z.ZodNumber).maxValue! };

const SubmitBody = z
  .object({
    data: boundedMap(SUBMISSION_BOUNDS).openapi({ description: 'Field values by key; unknown keys are dropped, text is cleaned' }),
    processRef: text({ max: 200 }).optional().openapi({ description: 'Kept in the instance context' }),
    _gotcha: text({ min: 0, max: 10_000, trim: false }).optional().openapi({ description: 'Honeypot: left empty by people; filled, nothing is stored' }),
  })
  .openapi('EmbedSubmission');

/** Rule 1 first: both budgets are spent before the body is read. */
const rateLimited = pairedRateLimit({
  prefix: 'forms-embed',
  perIpPerMinute: (s) => s['forms.rate-limit.per-ip-per-minute'],
  perTokenPerMinute: (s) => s['forms.rate-limit.per-token-per-minute'],
  refusal: 'Too many submissions; retry later',
  token: (c) => c.req.param('token') ?? '',
});

/** Rule 2's payload bound, counted on the stream (a lying or absent Content-Length changes nothing). */
const boundedSubmission = raises(
  boundedBody((c) => c.get('deps').settings['forms.max-submission-bytes'], 'Submissions'),
  'payload-too-large',
);

const FrameCheck = z
  .object({
    allowed: z.boolean(),
    reason: z.enum(['origin-not-allowed']).optional().openapi({ description: 'Why not, when not allowed' }),
  })
  .openapi('EmbedFrameCheck');

/** Host pages on any origin read the answer (errors included); no credentials are involved. */
const readableAnywhere: MiddlewareHandler = async (c, next) => {
  await next();
  // c.header, not c.res.headers: the Node adapter writes a finished response's headers from its own copy.
  c.header('Access-Control-Allow-Origin', '*');
};

export function publicEmbedRoutes() {
  const app = createRouter();
  const tags = ['Forms: public embed'];

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/public/embed/{token}',
      tags,
      summary: 'The published form of an embed token',
      description:
        'Public: the signed token is the credential and names the tenant. 404 `embed-form-not-found`, one and the same answer, for a token ' +
        'that is unknown, badly signed or rotated, and for a form that is not published, retired, deleted or outbound.',
      security: [],
      request: { params: TokenPath },
      responses: { 200: jsonContent(EmbeddedForm), ...problemResponses(400, 404) },
    }),
    async (c) => {
      const { db, settings } = c.get('deps');
      return c.json(await readEmbeddedForm({ db, settings }, c.req.valid('param').token), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/public/embed/{token}/frame-check',
      tags,
      summary: 'May a page on this origin frame the form? (asked by the embed SDK before it frames)',
      description:
        'The embed SDK asks before it creates the iframe, because a frame that `frame-ancestors` blocks cannot tell its host anything: ' +
        'not allowed, the SDK shows a short message in place of the form and fires `platform-form:error` with the reason. ' +
        '`origin` is the host page\'s (`location.origin`); the answer is readable from any origin (`Access-Control-Allow-Origin: *`, ' +
        'errors included). 404 `embed-form-not-found` as for the read (the SDK\'s reason `form-not-available`).',
      security: [],
      middleware: [readableAnywhere],
      request: {
        params: TokenPath,
        query: z.object({ origin: text({ max: 300 }).openapi({ description: 'The host page\'s origin, e.g. `https://shop.example`', example: 'https://shop.example' }) }),
      },
      responses: { 200: jsonContent(FrameCheck), ...problemResponses(400, 404) },
    }),
    async (c) => {
      const { db, settings } = c.get('deps');
      return c.json(await checkEmbedFrame({ db, settings }, c.req.valid('param').token, c.req.valid('query').origin), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/public/embed/{token}/submit',
      tags,
      summary: 'Submit the embedded form (rate-limited)',
      description:
        'In order (spec rule 1): the per-address and per-token rate limits (429 `rate-limited` with Retry-After), the body bound ' +
        '`forms.max-submission-bytes` (413), the token (404 as for the read), the honeypot `_gotcha` (filled: 201 with a random id, ' +
        'nothing stored), cleaning and validation against the published version (400 `validation-failed`, paths under `data.`), then ' +
        'one transaction: a SUBMITTED instance and the start of its formIntake process.',
      security: [],
      middleware: [rateLimited, boundedSubmission],
      request: { params: TokenPath, body: jsonBody(SubmitBody) },
      responses: { 201: jsonContent(z.object({ id: z.string() }).openapi('EmbedSubmitted'), 'Submitted'), ...problemResponses(400, 404, 413, 415) },
    }),
    async (c) => {
      const { db, settings } = c.get('deps');
      return c.json(await submitEmbedded({ db, settings }, c.req.valid('param').token, c.req.valid('json')), 201);
    },
  );
  return app;
}
