// Forms records, read-only: the definitions (GET /api/form-definitions), the instances
// (GET /api/form-instances) and one instance with its submitted data, submission PDF and
// attachments (GET /api/form-instances/{id}), through the same services. FORMS read grant.
import type { Hono } from 'hono';
import type { Child } from 'hono/jsx';
import { FORM_INSTANCE_STATES, type FormInstanceState } from '../../../domain/forms/instance-states';
import { AppError } from '../../../domain/errors';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../../domain/keyset-cursor';
import { listDefinitions } from '../../../services/definitions/read-definitions';
import { formDefinitionCapability } from '../../../services/forms/form-definitions';
import { getInstance, listInstances } from '../../../services/forms/instances';
import { submissionAttachments, submissionPdfs } from '../../../services/forms/submission-documents';
import type { ConsoleEnv } from '../env';
import { consolePage } from '../shell';
import { documentHref } from './document-links';
import { actorOf, consoleBase, idParam, pageQuery, recordPage, refusalFor, type ConsoleContext } from './record-access';
import { DataList, Empty, Facts, formatBytes, OlderLink, RecordTable, When, withQuery } from './record-parts';

const SECTION = 'forms';
const CODE = 'FORMS';

/** The API's next cursor rule for these lists: a full page may have a successor. */
const nextCursorOf = <R extends { cursorAt: string; id: string }>(rows: R[], limit: number) => {
  const last = rows.length === limit ? rows[rows.length - 1] : undefined;
  return last ? encodeKeysetCursor({ createdAt: last.cursorAt, id: last.id }) : null;
};

const FormsNav = ({ base, current }: { base: string; current: 'definitions' | 'instances' }) => (
  <nav class="subnav" aria-label="Forms records">
    <ul>
      <li>
        <a href={`${base}/forms`} aria-current={current === 'definitions' ? 'page' : undefined}>
          Definitions
        </a>
      </li>
      <li>
        <a href={`${base}/forms/instances`} aria-current={current === 'instances' ? 'page' : undefined}>
          Instances
        </a>
      </li>
    </ul>
  </nav>
);

async function definitionsPage(c: ConsoleContext) {
  const refused = refusalFor(c, SECTION, CODE);
  if (refused) return refused;
  const { deps, actor } = actorOf(c);
  const { cursor, limit } = pageQuery(c);
  const rows = await listDefinitions(deps, formDefinitionCapability, actor, { before: cursor ? decodeKeysetCursor(cursor) : null, limit });
  const base = consoleBase(c);
  const next = nextCursorOf(rows, limit);
  return consolePage(c, {
    title: 'Form definitions',
    section: SECTION,
    body: (
      <>
        <FormsNav base={base} current="definitions" />
        {rows.length === 0 ? (
          <Empty>{cursor ? 'No older form definitions.' : 'This tenant has no form definitions yet.'}</Empty>
        ) : (
          <RecordTable
            label="Form definitions"
            head={['Key', 'Name', 'Kind', 'State', 'Published version', 'Updated', 'Instances']}
            rows={rows.map((d) => [
              <code>{d.code}</code>,
              d.name,
              d.kind,
              d.status,
              d.publishedVersion ?? '—',
              <When at={d.updatedAt} />,
              <a href={withQuery(`${base}/forms/instances`, { definitionCode: d.code })}>Instances of {d.code}</a>,
            ])}
          />
        )}
        <OlderLink href={next && withQuery(`${base}/forms`, { cursor: next, limit: c.req.query('limit') })} />
      </>
    ),
  });
}

function instanceFilters(c: ConsoleContext): { definitionCode?: string; state?: FormInstanceState } {
  const definitionCode = c.req.query('definitionCode') || undefined;
  const state = c.req.query('state') || undefined;
  if (definitionCode !== undefined && !/^FM-[A-Za-z0-9-]{1,60}$/.test(definitionCode)) {
    throw new AppError('validation-failed', 'The form key in this address is not a form key such as FM-AB12CD');
  }
  if (state !== undefined && !(FORM_INSTANCE_STATES as readonly string[]).includes(state)) {
    throw new AppError('validation-failed', `The status must be one of ${FORM_INSTANCE_STATES.join(', ')}`);
  }
  return { definitionCode, state: state as FormInstanceState | undefined };
}

async function instancesPage(c: ConsoleContext) {
  const refused = refusalFor(c, SECTION, CODE);
  if (refused) return refused;
  const { deps, actor } = actorOf(c);
  const { cursor, limit } = pageQuery(c);
  const filters = instanceFilters(c);
  const rows = await listInstances(deps, actor, { ...filters, before: cursor ? decodeKeysetCursor(cursor) : null, limit });
  const pdfs = await submissionPdfs(deps.db, rows);
  const base = consoleBase(c);
  const next = nextCursorOf(rows, limit);
  const what = filters.definitionCode ? `instances of ${filters.definitionCode}` : 'form instances';
  return consolePage(c, {
    title: filters.definitionCode ? `Instances of ${filters.definitionCode}` : 'Form instances',
    section: SECTION,
    body: (
      <>
        <FormsNav base={base} current="instances" />
        {rows.length === 0 ? (
          <Empty>{cursor ? `No older ${what}.` : `There are no ${what}${filters.state ? ` with status ${filters.state}` : ''} yet.`}</Empty>
        ) : (
          <RecordTable
            label="Form instances"
            head={['Instance', 'Form', 'Status', 'Submitted', 'Created', 'Submission PDF']}
            rows={rows.map((r) => {
              const pdf = pdfs.get(r.id);
              return [
                <a href={`${base}/forms/instances/${r.id}`}>Instance {r.id.slice(0, 8)}</a>,
                <>
                  <code>{r.definitionCode}</code> v{r.definitionVersion}
                </>,
                r.state,
                <When at={r.submittedAt} />,
                <When at={r.createdAt} />,
                pdf ? <a href={documentHref(base, pdf.docId)}>Download PDF</a> : '—',
              ];
            })}
          />
        )}
        <OlderLink href={next && withQuery(`${base}/forms/instances`, { ...filters, cursor: next, limit: c.req.query('limit') })} />
      </>
    ),
  });
}

async function instancePage(c: ConsoleContext) {
  const refused = refusalFor(c, SECTION, CODE);
  if (refused) return refused;
  const { deps, actor } = actorOf(c);
  const row = await getInstance(deps, actor, idParam(c));
  const [pdf, attachments] = [(await submissionPdfs(deps.db, [row])).get(row.id), await submissionAttachments(deps.db, row)];
  const base = consoleBase(c);
  const processRef = typeof row.context.processRef === 'string' ? row.context.processRef : null;
  return consolePage(c, {
    title: `Form instance ${row.id.slice(0, 8)}`,
    section: SECTION,
    body: (
      <>
        <FormsNav base={base} current="instances" />
        <Facts
          items={[
            ['Form', <><code>{row.definitionCode}</code> version {row.definitionVersion}</>],
            ['Status', row.state],
            ['Origin', row.origin],
            ['Created', <When at={row.createdAt} />],
            ['Submitted', <When at={row.submittedAt} />],
            ['Submission PDF', pdf ? <a href={documentHref(base, pdf.docId)}>Download the submission PDF</a> : 'Not rendered yet'],
            ...(processRef ? [['Case file', <a href={withQuery(`${base}/documents`, { processRef })}>Documents of this case</a>] as [string, Child]] : []),
          ]}
        />
        <h2>Submitted data</h2>
        <DataList data={row.data} />
        <h2>Attachments</h2>
        {attachments.length === 0 ? (
          <Empty>No files were attached to this submission.</Empty>
        ) : (
          <ul>
            {attachments.map((a) => (
              <li>
                <a href={documentHref(base, a.docId)}>{a.filename}</a> ({formatBytes(a.sizeBytes)})
              </li>
            ))}
          </ul>
        )}
      </>
    ),
  });
}

export function mountFormPages(app: Hono<ConsoleEnv>) {
  app.get('/console/:tenantId/forms', recordPage(SECTION, definitionsPage));
  app.get('/console/:tenantId/forms/instances', recordPage(SECTION, instancesPage));
  app.get('/console/:tenantId/forms/instances/:id', recordPage(SECTION, instancePage, 'The form instance'));
}
