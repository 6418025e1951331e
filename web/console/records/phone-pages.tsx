// Phone calls, read-only: the calls, newest first (GET /api/phone-calls, keyset-paged with the
// same cursor), and one call (GET /api/phone-calls/{id}), through the same services. PHONE read grant.
import type { Hono } from 'hono';
import { CALL_DIRECTIONS, PHONE_CALL_STATUSES } from '../../../domain/phone/call-fields';
import { AppError } from '../../../domain/errors';
import type { PhoneCallRow } from '../../../db/queries/phone';
import { getCall, listCalls } from '../../../services/phone/call-reads';
import type { ConsoleEnv } from '../env';
import { consolePage } from '../shell';
import { consoleBase, idParam, pageQuery, recordPage, refusalFor, type ConsoleContext } from './record-access';
import { Empty, Facts, formatDuration, OlderLink, RecordTable, When, withQuery } from './record-parts';

const SECTION = 'phone';
const CODE = 'PHONE';

function filtersOf(c: ConsoleContext): { status?: PhoneCallRow['status']; direction?: PhoneCallRow['direction'] } {
  const status = c.req.query('status') || undefined;
  const direction = c.req.query('direction') || undefined;
  if (status !== undefined && !(PHONE_CALL_STATUSES as readonly string[]).includes(status)) {
    throw new AppError('validation-failed', `The status must be one of ${PHONE_CALL_STATUSES.join(', ')}`);
  }
  if (direction !== undefined && !(CALL_DIRECTIONS as readonly string[]).includes(direction)) {
    throw new AppError('validation-failed', `The direction must be one of ${CALL_DIRECTIONS.join(', ')}`);
  }
  return { status: status as PhoneCallRow['status'] | undefined, direction: direction as PhoneCallRow['direction'] | undefined };
}

async function callsPage(c: ConsoleContext) {
  const refused = refusalFor(c, SECTION, CODE);
  if (refused) return refused;
  const { cursor, limit } = pageQuery(c);
  const filters = filtersOf(c);
  const page = await listCalls(c.get('deps').db, { tenantId: c.get('caller').tenantId, ...filters, limit, cursor });
  const base = consoleBase(c);
  const next = page.nextCursor ? withQuery(`${base}/phone`, { ...filters, cursor: page.nextCursor, limit: c.req.query('limit') }) : null;
  return consolePage(c, {
    title: 'Phone calls',
    section: SECTION,
    body: (
      <>
        {page.items.length === 0 ? (
          <Empty>{cursor ? 'No older calls.' : `This tenant has no phone calls${filters.status ? ` with status ${filters.status}` : ''} yet.`}</Empty>
        ) : (
          <RecordTable
            label="Phone calls"
            head={['Call', 'Direction', 'Status', 'Duration', 'Ended reason', 'Created']}
            rows={page.items.map((r) => [
              <a href={`${base}/phone/${r.id}`}>Call {r.id.slice(0, 8)}</a>,
              r.direction,
              r.status,
              formatDuration(r.startedAt, r.endedAt),
              r.endedReason ?? '—',
              <When at={r.createdAt} />,
            ])}
          />
        )}
        <OlderLink href={next} />
      </>
    ),
  });
}

async function callPage(c: ConsoleContext) {
  const refused = refusalFor(c, SECTION, CODE);
  if (refused) return refused;
  const row = await getCall(c.get('deps').db, { tenantId: c.get('caller').tenantId, id: idParam(c) });
  return consolePage(c, {
    title: `Call ${row.id.slice(0, 8)}`,
    section: SECTION,
    body: (
      <>
        <Facts
          items={[
            ['Direction', row.direction],
            ['Status', row.status],
            ['Customer number', row.customerNumber ?? '—'],
            ['Started', <When at={row.startedAt} />],
            ['Ended', <When at={row.endedAt} />],
            ['Duration', formatDuration(row.startedAt, row.endedAt)],
            ['Ended reason', row.endedReason ?? '—'],
            ['Error', row.errorMessage ?? '—'],
            ['Business key', row.businessKey ?? '—'],
            ['Process', row.processStatus ?? '—'],
            ['Created', <When at={row.createdAt} />],
          ]}
        />
        <h2>Summary</h2>
        {row.summary ? <p>{row.summary}</p> : <Empty>The provider has sent no summary of this call.</Empty>}
        <p>
          <a href={`${consoleBase(c)}/phone`}>Back to the calls</a>
        </p>
      </>
    ),
  });
}

export function mountPhonePages(app: Hono<ConsoleEnv>) {
  app.get('/console/:tenantId/phone', recordPage(SECTION, callsPage));
  app.get('/console/:tenantId/phone/:id', recordPage(SECTION, callPage, 'The phone call'));
}
