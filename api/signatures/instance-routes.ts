// Campaigns for the tenant (issue 13 §2): start, list, detail, cancel, signed.pdf, re-seal,
// remind, and the legacy single-signer start. SIGNATURES guard: reads `read`, writes `read-write`.
// Another tenant's campaign is 404 `signature-instance-not-found` on every route.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { AppError } from '../../domain/errors';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../domain/keyset-cursor';
import { instanceDetail, instanceSummary, listCampaigns, requireInstance } from '../../services/signatures/campaign-reads';
import { cancelCampaign, remindRecipient, requestReseal } from '../../services/signatures/campaign-steps';
import { startCampaign, startSingleSigner } from '../../services/signatures/start-campaign';
import { actorOf } from '../definitions/context';
import { definitionGuards } from '../definitions/guards';
import { downloadDocument } from '../documents/download';
import type { DocumentsRuntime } from '../documents/runtime';
import type { AppEnv } from '../env';
import { text } from '../vocabulary';
import { createRouter, jsonBody, jsonContent, problemResponses, ProblemSchema, uuidParam } from '../openapi';
import { InstanceDetail, InstanceListQuery, InstancePage, LegacySignatureBody, RemindView, StartCampaignBody } from './instance-schemas';

const BASE = '/api/signature-instances';
const InstancePath = z.object({ id: uuidParam() });

const campaignDeps = (c: Context<AppEnv>) => {
  const { deps, actor } = actorOf(c);
  return { deps: { ...deps, mailer: c.get('deps').mailer, logger: c.get('log') }, actor };
};

const START_ERRORS =
  '400 `signing-input-invalid` naming missing, duplicate or unknown signer roles and missing required variables (`errors[]`); 404 `definition-not-found`; ' +
  '409 `signature-definition-not-published`; 501 `verification-method-not-available` for a definition with an SMS_OTP or IDV signer; 503 `secrets-unavailable` ' +
  'without `secrets.master-key` (names, e-mails and tokens are stored sealed).';

export function instanceRoutes(rt: DocumentsRuntime) {
  const app = createRouter();
  const { reader, writer } = definitionGuards('SIGNATURES');
  const tags = ['Signatures: campaigns'];

  app.openapi(
    createRoute({
      method: 'post',
      path: BASE,
      tags,
      summary: 'Start a campaign from the published version: one recipient per signer role',
      description:
        `One transaction writes the instance (PENDING), its recipients (sequential: the lowest order group R_PENDING, the rest R_WAITING; parallel: all ` +
        `R_PENDING) and the signatureCeremony outbox start row; the ceremony mails the armed recipients their links. ${START_ERRORS}`,
      middleware: writer,
      request: { body: jsonBody(StartCampaignBody) },
      responses: { 201: jsonContent(InstanceDetail, 'Started'), ...problemResponses(400, 404, 409, 501, 503) },
    }),
    async (c) => {
      const { deps, actor } = campaignDeps(c);
      const { instanceId } = await startCampaign(deps, actor, c.req.valid('json'));
      return c.json(await instanceDetail(deps, await requireInstance(deps.db, actor, instanceId)), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/signatures',
      tags,
      summary: 'Legacy: a signature request to one recipient (a one-signer campaign underneath)',
      description: `The definition must have exactly one signer role (else 400 \`signing-input-invalid\`). Answers like a campaign start. ${START_ERRORS}`,
      middleware: writer,
      request: { body: jsonBody(LegacySignatureBody) },
      responses: { 201: jsonContent(InstanceDetail, 'Started'), ...problemResponses(400, 404, 409, 501, 503) },
    }),
    async (c) => {
      const { deps, actor } = campaignDeps(c);
      const { instanceId } = await startSingleSigner(deps, actor, c.req.valid('json'));
      return c.json(await instanceDetail(deps, await requireInstance(deps.db, actor, instanceId)), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: BASE,
      tags,
      summary: 'List campaigns, newest first (keyset-paged), by status and definition',
      middleware: reader,
      request: { query: InstanceListQuery },
      responses: { 200: jsonContent(InstancePage), ...problemResponses(400) },
    }),
    async (c) => {
      const { deps, actor } = campaignDeps(c);
      const q = c.req.valid('query');
      const rows = await listCampaigns(deps, actor, { status: q.status, definitionId: q.definitionId, before: q.cursor ? decodeKeysetCursor(q.cursor) : null, limit: q.limit });
      const last = rows.length === q.limit ? rows[rows.length - 1] : undefined;
      return c.json({ items: rows.map(instanceSummary), nextCursor: last ? encodeKeysetCursor({ createdAt: last.cursorAt, id: last.id }) : null }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: `${BASE}/{id}`,
      tags,
      summary: 'A campaign: recipients (tokens, signing URLs, statuses, delivery), seal status, audit trail',
      description: 'Names, e-mails, client addresses and user agents are never answered (they are stored sealed).',
      middleware: reader,
      request: { params: InstancePath },
      responses: { 200: jsonContent(InstanceDetail), ...problemResponses(400, 404, 503) },
    }),
    async (c) => {
      const { deps, actor } = campaignDeps(c);
      return c.json(await instanceDetail(deps, await requireInstance(deps.db, actor, c.req.valid('param').id)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${BASE}/{id}/cancel`,
      tags,
      summary: 'Cancel a live campaign; the ceremony ends',
      description: '409 `instance-terminal` when COMPLETED, CANCELLED or EXPIRED. CANCELLED, the audit event and the ceremony\'s `cancel` signal row commit together; the links stop working at once.',
      middleware: writer,
      request: { params: InstancePath },
      responses: { 200: jsonContent(InstanceDetail), ...problemResponses(400, 404, 409, 503) },
    }),
    async (c) => {
      const { deps, actor } = campaignDeps(c);
      return c.json(await instanceDetail(deps, await cancelCampaign(deps, actor, c.req.valid('param').id)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${BASE}/{id}/seal`,
      tags,
      summary: 'Re-seal now a completed campaign whose seal FAILED',
      description: '202: the ceremony is signalled to seal again at once (it also retries on its own after `signatures.reseal-backoff-minutes`). 409 `signature-state-conflict` unless COMPLETED with seal FAILED.',
      middleware: writer,
      request: { params: InstancePath },
      responses: { 202: jsonContent(InstanceDetail, 'Re-seal requested'), ...problemResponses(400, 404, 409, 503) },
    }),
    async (c) => {
      const { deps, actor } = campaignDeps(c);
      return c.json(await instanceDetail(deps, await requestReseal(deps, actor, c.req.valid('param').id)), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${BASE}/{id}/recipients/{signerId}/remind`,
      tags,
      summary: 'Mail a recipient its signing link again',
      description:
        "409 `signature-state-conflict` unless the recipient is R_PENDING or R_OPENED; 409 `instance-terminal` for an ended campaign. Audited `reminded`; the mail's outcome is answered and recorded, never a failed request.",
      middleware: writer,
      request: { params: z.object({ id: uuidParam(), signerId: text({ max: 100 }).openapi({ param: { name: 'signerId', in: 'path' } }) }) },
      responses: { 200: jsonContent(RemindView), ...problemResponses(400, 404, 409, 503) },
    }),
    async (c) => {
      const { deps, actor } = campaignDeps(c);
      const { id, signerId } = c.req.valid('param');
      return c.json(await remindRecipient(deps, actor, id, signerId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: `${BASE}/{id}/signed.pdf`,
      tags,
      summary: 'The sealed PDF',
      description: '409 `signature-state-conflict` until the seal is SEALED. Streamed from the document store (a SIGNATURES document owned by the instance).',
      middleware: reader,
      request: { params: InstancePath },
      responses: {
        200: { description: 'The sealed PDF', content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } } },
        206: { description: 'One byte range', content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } } },
        416: { description: 'Range not satisfiable', content: { 'application/problem+json': { schema: ProblemSchema } } },
        ...problemResponses(400, 404, 409, 423, 503),
      },
    }),
    async (c) => {
      const { deps, actor } = campaignDeps(c);
      const row = await requireInstance(deps.db, actor, c.req.valid('param').id);
      if (row.sealStatus !== 'SEALED' || !row.sealedDocumentId) {
        throw new AppError('signature-state-conflict', `The campaign is not sealed yet (status ${row.status}, seal ${row.sealStatus ?? 'none'})`, {
          instanceStatus: row.status,
          sealStatus: row.sealStatus,
        });
      }
      return downloadDocument(c, rt, row.sealedDocumentId) as never;
    },
  );
  return app;
}
