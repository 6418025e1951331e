// Calendars, read-only: the tenant's calendars (GET /api/business-calendars, CALENDAR read), the
// process associations (GET /api/process-calendars, SLA read) and an SLA due-date calculator
// answering as POST /api/sla/calculate does (SLA read), through the same services. The calculator
// is an htmx form: htmx swaps the result in; without script the whole page comes back with it.
import type { Hono } from 'hono';
import type { Child } from 'hono/jsx';
import { codeSchema, dateTimeSchema, processKeySchema, timeZoneSchema, type SlaResult } from '../../../domain/calendar/index';
import { AppError } from '../../../domain/errors';
import { listCalendars } from '../../../services/calendars/calendars';
import { listProcessCalendars } from '../../../services/calendars/process-calendars';
import { calculateTenantSla, type SlaCalculation } from '../../../services/calendars/sla';
import type { ConsoleEnv } from '../env';
import { consolePage, csrfInput, notice } from '../shell';
import { consoleBase, mayUse, recordPage, refusalFor, type ConsoleContext } from './record-access';
import { Empty, Facts, RecordTable, When } from './record-parts';

const SECTION = 'calendars';

/** What the calculator's form holds, as typed (re-shown beside a refusal). */
interface SlaFields {
  calendarCode: string;
  processDefinitionKey: string;
  receivedDateTime: string;
  receivedTimezone: string;
  businessDays: string;
  businessMinutes: string;
}

const EMPTY_FIELDS: SlaFields = { calendarCode: '', processDefinitionKey: '', receivedDateTime: '', receivedTimezone: 'UTC', businessDays: '0', businessMinutes: '0' };

type Outcome = { result: SlaResult } | { problem: string } | null;

/** The calculator's fields as the API's request: exactly one of a calendar (with a budget) and a process key. */
function slaRequestOf(f: SlaFields): SlaCalculation {
  const bad = (detail: string) => new AppError('validation-failed', detail);
  const calendarCode = f.calendarCode.trim();
  const processKey = f.processDefinitionKey.trim();
  if ((calendarCode === '') === (processKey === '')) throw bad('Give either a calendar code or a process definition key, not both');
  if (!dateTimeSchema.safeParse(f.receivedDateTime.trim()).success) throw bad('"Received at" must be a date and time, such as 2025-03-28T16:30');
  const zone = f.receivedTimezone.trim();
  if (zone !== '' && !timeZoneSchema.safeParse(zone).success) throw bad('The time zone must be an IANA zone name, such as Europe/Berlin or UTC');
  const received = { receivedDateTime: f.receivedDateTime.trim(), ...(zone !== '' ? { receivedTimezone: zone } : {}) };
  if (processKey !== '') {
    if (!processKeySchema.safeParse(processKey).success) throw bad('The process definition key must be 1 to 200 characters without control characters');
    return { ...received, processDefinitionKey: processKey };
  }
  if (!codeSchema.safeParse(calendarCode).success) throw bad('The calendar code must be 1 to 64 letters, digits, _ - or .');
  const whole = (value: string, label: string) => {
    const n = Number(value.trim() === '' ? '0' : value);
    if (!Number.isInteger(n) || n < 0 || n > 2_147_483_647) throw bad(`${label} must be a whole number, 0 or more`);
    return n;
  };
  return { ...received, calendarCode, sla: { businessDays: whole(f.businessDays, 'Business days'), businessMinutes: whole(f.businessMinutes, 'Business minutes') } };
}

function SlaOutcome({ outcome }: { outcome: Outcome }) {
  if (!outcome) return <p class="help">The due date appears here.</p>;
  if ('problem' in outcome) return notice({ kind: 'error', text: outcome.problem });
  const r = outcome.result;
  return (
    <>
      {notice({ kind: 'ok', text: `Due ${r.dueDateTimeLocal}.` })}
      <Facts
      items={[
        ['Due (local)', <time datetime={r.dueDateTimeUtc} data-field="dueDateTimeLocal">{r.dueDateTimeLocal}</time>],
        ['Due (UTC)', <time datetime={r.dueDateTimeUtc} data-field="dueDateTimeUtc">{r.dueDateTimeUtc}</time>],
        ['Received (UTC)', <time datetime={r.receivedDateTimeUtc}>{r.receivedDateTimeUtc}</time>],
        ['Business minutes', String(r.totalBusinessMinutesConsumed)],
        ['Calendar', r.calendarCode],
        ['Locations', r.locationsUsed.join(', ') || '—'],
      ]}
      />
    </>
  );
}

function field(id: string, label: string, input: Child, help?: string) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {help ? <p class="help" id={`${id}-help`}>{help}</p> : null}
      {input}
    </div>
  );
}

function SlaCalculator({ c, fields, outcome, calendars, processKeys }: { c: ConsoleContext; fields: SlaFields; outcome: Outcome; calendars: string[]; processKeys: string[] }) {
  const action = `${consoleBase(c)}/calendars/sla`;
  return (
    <section aria-labelledby="sla-heading">
      <h2 id="sla-heading">SLA due date</h2>
      <form method="post" action={action} hx-post={action} hx-target="#sla-result" hx-swap="innerHTML" class="stack">
        {csrfInput(c)}
        {field('sla-calendar', 'Calendar code', <input id="sla-calendar" name="calendarCode" type="text" list="sla-calendars" maxlength={64} value={fields.calendarCode} aria-describedby="sla-calendar-help" />, 'With a calendar, give the budget below.')}
        <datalist id="sla-calendars">
          {calendars.map((code) => (
            <option value={code} />
          ))}
        </datalist>
        {field('sla-process', 'or process definition key', <input id="sla-process" name="processDefinitionKey" type="text" list="sla-processes" maxlength={200} value={fields.processDefinitionKey} aria-describedby="sla-process-help" />, "A process brings its calendar and budget from its association.")}
        <datalist id="sla-processes">
          {processKeys.map((key) => (
            <option value={key} />
          ))}
        </datalist>
        {field('sla-received', 'Received at', <input id="sla-received" name="receivedDateTime" type="datetime-local" step={60} required value={fields.receivedDateTime} />)}
        {field('sla-zone', 'Time zone', <input id="sla-zone" name="receivedTimezone" type="text" maxlength={64} value={fields.receivedTimezone} aria-describedby="sla-zone-help" />, 'An IANA zone name, such as Europe/Berlin.')}
        {field('sla-days', 'Budget: business days', <input id="sla-days" name="businessDays" type="number" min={0} step={1} value={fields.businessDays} />)}
        {field('sla-minutes', 'Budget: business minutes', <input id="sla-minutes" name="businessMinutes" type="number" min={0} step={1} value={fields.businessMinutes} />)}
        <div class="row-actions">
          <button type="submit">Calculate the due date</button>
          <span class="busy-indicator">Calculating…</span>
        </div>
      </form>
      <div id="sla-result" aria-live="polite">
        <SlaOutcome outcome={outcome} />
      </div>
    </section>
  );
}

/** The page: what the viewer's grants open of it (calendars: CALENDAR; associations and the calculator: SLA). */
async function calendarsPage(c: ConsoleContext, fields: SlaFields = EMPTY_FIELDS, outcome: Outcome = null, status?: 400 | 404 | 409 | 422) {
  const seesCalendars = mayUse(c, 'CALENDAR');
  const seesSla = mayUse(c, 'SLA');
  if (!seesCalendars && !seesSla) return refusalFor(c, SECTION, 'CALENDAR') ?? refusalFor(c, SECTION, 'SLA')!;
  const { db } = c.get('deps');
  const tenantId = c.get('caller').tenantId;
  const calendars = seesCalendars ? await listCalendars(db, { tenantId }) : [];
  const associations = seesSla ? await listProcessCalendars(db, { tenantId }) : [];
  return consolePage(c, {
    title: 'Calendars',
    section: SECTION,
    status,
    body: (
      <>
        <h2>Business calendars</h2>
        {!seesCalendars ? (
          <p>Seeing the calendars needs a grant on Calendars.</p>
        ) : calendars.length === 0 ? (
          <Empty>This tenant has no business calendars yet.</Empty>
        ) : (
          <RecordTable
            label="Business calendars"
            head={['Code', 'Name', 'Active', 'Business day', 'Updated']}
            rows={calendars.map((r) => [<code>{r.calendarCode}</code>, r.name, r.active ? 'Yes' : 'No', `${r.businessDayMinutes} min`, <When at={r.updatedAt} />])}
          />
        )}
        {seesSla ? (
          <>
            <h2>Process calendars</h2>
            {associations.length === 0 ? (
              <Empty>No process is associated with a calendar yet.</Empty>
            ) : (
              <RecordTable
                label="Process calendars"
                head={['Process definition key', 'Calendar', 'Budget', 'Active']}
                rows={associations.map((a) => [
                  a.processDefinitionKey,
                  <code>{a.calendarCode}</code>,
                  `${a.slaBusinessDays} business days, ${a.slaBusinessMinutes} min`,
                  a.active ? 'Yes' : 'No',
                ])}
              />
            )}
            <SlaCalculator
              c={c}
              fields={fields}
              outcome={outcome}
              calendars={calendars.map((r) => r.calendarCode)}
              processKeys={associations.map((a) => a.processDefinitionKey)}
            />
          </>
        ) : (
          <p>The SLA due-date calculator needs a grant on SLA.</p>
        )}
      </>
    ),
  });
}

/** POST: the due date (htmx: the result fragment; otherwise the page with the result in place). */
async function calculate(c: ConsoleContext) {
  const refused = refusalFor(c, SECTION, 'SLA');
  if (refused) return refused;
  const form = await c.req.parseBody();
  const read = (k: keyof SlaFields) => (typeof form[k] === 'string' ? (form[k] as string).slice(0, 300) : '');
  const fields: SlaFields = {
    calendarCode: read('calendarCode'),
    processDefinitionKey: read('processDefinitionKey'),
    receivedDateTime: read('receivedDateTime'),
    receivedTimezone: read('receivedTimezone'),
    businessDays: read('businessDays'),
    businessMinutes: read('businessMinutes'),
  };
  let outcome: Outcome;
  let status: 400 | 404 | 409 | 422 | undefined;
  try {
    const deps = c.get('deps');
    outcome = { result: await calculateTenantSla(deps.db, c.get('caller').tenantId, slaRequestOf(fields), deps.compiledCalendars) };
  } catch (err) {
    if (!(err instanceof AppError) || ![400, 404, 409, 422].includes(err.status)) throw err;
    outcome = { problem: `No due date: ${/[.!?]$/.test(err.detail) ? err.detail : `${err.detail}.`}` };
    status = err.status as 400 | 404 | 409 | 422;
  }
  // htmx swaps the result region only (refusals too: the console's htmx swaps 4xx answers).
  if (c.req.header('HX-Request') === 'true') {
    c.header('Cache-Control', 'no-store');
    return c.html(String(<SlaOutcome outcome={outcome} />), status ?? 200);
  }
  return calendarsPage(c, fields, outcome, status);
}

export function mountCalendarPages(app: Hono<ConsoleEnv>) {
  app.get('/console/:tenantId/calendars', recordPage(SECTION, (c) => calendarsPage(c)));
  app.post('/console/:tenantId/calendars/sla', recordPage(SECTION, calculate));
}
