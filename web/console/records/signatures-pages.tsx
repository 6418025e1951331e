// Signature campaigns, read-only but for one step: the campaigns (GET /api/signature-instances),
// one campaign with its recipients' progress, the sealed PDF (GET .../{id}/signed.pdf) and
// "Re-seal" when the seal FAILED (POST .../{id}/seal), through the same services. SIGNATURES
// read grant for the pages; the re-seal needs read-write, as on the API.
import type { Hono } from 'hono';
import { AppError } from '../../../domain/errors';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../../domain/keyset-cursor';
import { SIGNATURE_INSTANCE_STATES, type SignatureInstanceState } from '../../../domain/signatures/instance-states';
import type { SignatureInstanceRow } from '../../../db/queries/signature-instances';
import { openDocumentContent } from '../../../services/documents/document-content';
import { campaignProgress, type CampaignProgress } from '../../../services/signatures/campaign-progress';
import { listCampaigns, requireInstance } from '../../../services/signatures/campaign-reads';
import { requestReseal } from '../../../services/signatures/campaign-steps';
import type { ConsoleEnv } from '../env';
import { consolePage, csrfInput, notice } from '../shell';
import { consoleDocuments, downloadResponse, registryCaller } from './document-links';
import { actorOf, consoleBase, idParam, mayUse, pageQuery, recordPage, refusalFor, type ConsoleContext } from './record-access';
import { Empty, Facts, OlderLink, RecordTable, When, withQuery } from './record-parts';

const SECTION = 'signatures';
const CODE = 'SIGNATURES';

const campaignDeps = (c: ConsoleContext) => {
  const { deps, actor } = actorOf(c);
  return { deps: { ...deps, mailer: c.get('deps').mailer, logger: c.get('log') }, actor };
};

const progressText = (p: CampaignProgress | undefined) => (p ? `${p.signed} of ${p.total} signed` : '—');

const sealText = (row: SignatureInstanceRow) =>
  row.sealStatus === null ? 'Not sealed yet' : row.sealStatus === 'FAILED' ? `FAILED (${row.sealError ?? 'no reason recorded'})` : row.sealStatus;

function statusFilter(c: ConsoleContext): SignatureInstanceState | undefined {
  const status = c.req.query('status') || undefined;
  if (status !== undefined && !(SIGNATURE_INSTANCE_STATES as readonly string[]).includes(status)) {
    throw new AppError('validation-failed', `The status must be one of ${SIGNATURE_INSTANCE_STATES.join(', ')}`);
  }
  return status as SignatureInstanceState | undefined;
}

async function campaignsPage(c: ConsoleContext) {
  const refused = refusalFor(c, SECTION, CODE);
  if (refused) return refused;
  const { deps, actor } = campaignDeps(c);
  const { cursor, limit } = pageQuery(c);
  const status = statusFilter(c);
  const rows = await listCampaigns(deps, actor, { status, before: cursor ? decodeKeysetCursor(cursor) : null, limit });
  const progress = await campaignProgress(deps.db, rows);
  const base = consoleBase(c);
  const last = rows.length === limit ? rows[rows.length - 1] : undefined;
  const next = last ? withQuery(`${base}/signatures`, { status, cursor: encodeKeysetCursor({ createdAt: last.cursorAt, id: last.id }), limit: c.req.query('limit') }) : null;
  return consolePage(c, {
    title: 'Signature campaigns',
    section: SECTION,
    body: (
      <>
        {rows.length === 0 ? (
          <Empty>{cursor ? 'No older campaigns.' : `This tenant has no signature campaigns${status ? ` with status ${status}` : ''} yet.`}</Empty>
        ) : (
          <RecordTable
            label="Signature campaigns"
            head={['Campaign', 'Status', 'Recipients', 'Seal', 'Created']}
            rows={rows.map((r) => [
              <a href={`${base}/signatures/${r.id}`}>Campaign {r.id.slice(0, 8)}</a>,
              r.status,
              progressText(progress.get(r.id)),
              sealText(r),
              <When at={r.createdAt} />,
            ])}
          />
        )}
        <OlderLink href={next} />
      </>
    ),
  });
}

async function campaignPage(c: ConsoleContext, outcome?: { status: 409 | 503; text: string }) {
  const refused = refusalFor(c, SECTION, CODE);
  if (refused) return refused;
  const { deps, actor } = campaignDeps(c);
  const row = await requireInstance(deps.db, actor, idParam(c));
  const progress = (await campaignProgress(deps.db, [row])).get(row.id);
  const base = consoleBase(c);
  const here = `${base}/signatures/${row.id}`;
  const resealable = row.status === 'COMPLETED' && row.sealStatus === 'FAILED';
  const resealed = c.req.query('resealed') === '1';
  return consolePage(c, {
    title: `Campaign ${row.id.slice(0, 8)}`,
    section: SECTION,
    status: outcome?.status,
    body: (
      <>
        {outcome ? notice({ kind: 'error', text: outcome.text }) : null}
        {resealed && !outcome ? notice({ kind: 'ok', text: 'Re-seal requested: the ceremony seals the document again now.' }) : null}
        <Facts
          items={[
            ['Status', row.status],
            ['Recipients', progressText(progress)],
            ['Seal', sealText(row)],
            ['Created', <When at={row.createdAt} />],
            ['Completed', <When at={row.completedAt} />],
            ['Expires', <When at={row.expiresAt} />],
            [
              'Sealed PDF',
              row.sealStatus === 'SEALED' && row.sealedDocumentId ? <a href={`${here}/signed.pdf`}>Download the sealed PDF</a> : 'Not sealed yet',
            ],
          ]}
        />
        {resealable ? (
          mayUse(c, CODE, 'write') ? (
            <form method="post" action={`${here}/seal`} class="inline">
              {csrfInput(c)}
              <p class="help">The seal failed. Re-sealing asks the ceremony to seal the signed document again now.</p>
              <button type="submit">Re-seal</button>
            </form>
          ) : (
            <p class="help">The seal failed. Re-sealing needs a read-write grant on Signatures.</p>
          )
        ) : null}
        <h2>Recipients</h2>
        {!progress || progress.recipients.length === 0 ? (
          <Empty>This campaign has no recipients.</Empty>
        ) : (
          <RecordTable
            label="Recipients"
            head={['Signer role', 'Order', 'Status', 'Mail', 'Opened', 'Signed']}
            rows={progress.recipients.map((r) => [r.signerId, r.order, r.status, r.deliveryStatus ?? '—', <When at={r.openedAt} />, <When at={r.signedAt} />])}
          />
        )}
      </>
    ),
  });
}

/** POST: the API's re-seal step; back to the campaign (303), or the campaign with the refusal beside it. */
async function reseal(c: ConsoleContext) {
  const refused = refusalFor(c, SECTION, CODE, 'write');
  if (refused) return refused;
  const { deps, actor } = campaignDeps(c);
  const id = idParam(c);
  try {
    await requestReseal(deps, actor, id);
  } catch (err) {
    if (err instanceof AppError && (err.code === 'signature-state-conflict' || err.status === 503)) {
      return campaignPage(c, { status: err.status as 409 | 503, text: `Not re-sealed: ${err.detail}.` });
    }
    throw err;
  }
  return c.redirect(`${consoleBase(c)}/signatures/${id}?resealed=1`, 303);
}

/** The sealed PDF, streamed from the document store like GET /api/signature-instances/{id}/signed.pdf. */
async function sealedPdf(c: ConsoleContext) {
  const refused = refusalFor(c, SECTION, CODE);
  if (refused) return refused;
  const { deps, actor } = campaignDeps(c);
  const row = await requireInstance(deps.db, actor, idParam(c));
  if (row.sealStatus !== 'SEALED' || !row.sealedDocumentId) {
    throw new AppError('signature-state-conflict', `The campaign is not sealed yet (status ${row.status}, seal ${row.sealStatus ?? 'none'})`);
  }
  const docs = consoleDocuments(c.get('deps'));
  return downloadResponse(c, await openDocumentContent(docs.registry, docs.store, registryCaller(c), row.sealedDocumentId), 'application/pdf');
}

export function mountSignaturePages(app: Hono<ConsoleEnv>) {
  app.get('/console/:tenantId/signatures', recordPage(SECTION, campaignsPage));
  app.get('/console/:tenantId/signatures/:id', recordPage(SECTION, (c) => campaignPage(c), 'The campaign'));
  app.post('/console/:tenantId/signatures/:id/seal', recordPage(SECTION, reseal, 'The campaign'));
  app.get('/console/:tenantId/signatures/:id/signed.pdf', recordPage(SECTION, sealedPdf, 'The campaign'));
}
