// Who may see a record page, and what a refused or failed page says. The rule is the JSON API's
// capability guard (domain/access/capability-access.ts) on the same caller snapshot the identity
// middleware loaded: a refusal is a 403 page in words, never data; a record of another tenant (or
// none) is a 404 page; the services' other refusals become pages with the service's own words.
import type { Context } from 'hono';
import { assertCapabilityAccess, hasCapabilityAccess, type AccessMode } from '../../../domain/access/capability-access';
import { AppError } from '../../../domain/errors';
import type { Actor, DefinitionDeps } from '../../../services/definitions/capability';
import type { ConsoleEnv } from '../env';
import { consolePage } from '../shell';

export type ConsoleContext = Context<ConsoleEnv>;
export type RecordSection = 'forms' | 'signatures' | 'documents' | 'phone' | 'calendars';

/** What each capability's records are called on a page. */
const RECORDS_OF: Record<string, { name: string; records: string }> = {
  FORMS: { name: 'Forms', records: 'form definitions and their instances' },
  SIGNATURES: { name: 'Signatures', records: 'signature campaigns' },
  EMAIL: { name: 'E-mail', records: 'e-mail documents' },
  documents: { name: 'a document capability (Forms, Signatures or E-mail)', records: 'documents' },
  PHONE: { name: 'Phone', records: 'phone calls' },
  CALENDAR: { name: 'Calendars', records: 'business calendars' },
  SLA: { name: 'SLA', records: 'SLA due dates' },
};
const nameOf = (code: string) => RECORDS_OF[code]?.name ?? code;
const recordsOf = (code: string) => RECORDS_OF[code]?.records ?? `${code} records`;

const SECTION_TITLES: Record<RecordSection, string> = {
  forms: 'Forms',
  signatures: 'Signatures',
  documents: 'Documents',
  phone: 'Phone calls',
  calendars: 'Calendars',
};

/** The capability a section's refusals name (documents: any document capability). */
const SECTION_CODES: Record<RecordSection, string> = {
  forms: 'FORMS',
  signatures: 'SIGNATURES',
  documents: 'documents',
  phone: 'PHONE',
  calendars: 'CALENDAR',
};

/** `/console/{tenantId}`: where this tenant's console pages live. */
export const consoleBase = (c: ConsoleContext) => `/console/${encodeURIComponent(c.get('viewer').tenantId)}`;

/** The definition services' deps and actor, as the API's `actorOf` builds them. */
export function actorOf(c: ConsoleContext): { deps: DefinitionDeps; actor: Actor } {
  const { db, settings, clock } = c.get('deps');
  const { tenantId, userId } = c.get('caller');
  return { deps: { db, settings, clock }, actor: { tenantId, userId } };
}

/** Whether the viewer may read (or write) `code`: the guard's rule, as a predicate. */
export const mayUse = (c: ConsoleContext, code: string, mode: AccessMode = 'read') => hasCapabilityAccess(c.get('caller').snapshot, code, mode);

/** The guard of one capability: null when the viewer passes it, else the 403 page saying why. */
export function refusalFor(c: ConsoleContext, section: RecordSection, code: string, mode: AccessMode = 'read'): Response | null {
  try {
    assertCapabilityAccess(c.get('caller').snapshot, code, mode);
    return null;
  } catch (err) {
    if (err instanceof AppError && err.status === 403) return refusalPage(c, section, err.code, code);
    throw err;
  }
}

/** The guard of the documents page, which a read grant on any document capability opens. */
export function refusalForAny(c: ConsoleContext, section: RecordSection, codes: readonly string[]): Response | null {
  if (codes.some((code) => mayUse(c, code))) return null;
  return refusalPage(c, section, 'capability-not-granted', 'documents');
}

function refusalText(reason: string, code: string): string {
  switch (reason) {
    case 'capability-not-subscribed':
      return `This tenant has no active subscription to ${nameOf(code)}, so there are no ${recordsOf(code)} to show here.`;
    case 'capability-write-required':
      return `This needs a read-write grant on ${nameOf(code)}; you hold a read grant only.`;
    case 'capability-not-granted':
      return `You hold no grant on ${nameOf(code)} in this tenant, so its ${recordsOf(code)} are not shown to you.`;
    default:
      return `You may not see this in this tenant.`;
  }
}

/** The 403 page: what is refused, why, and where access is asked for. */
export function refusalPage(c: ConsoleContext, section: RecordSection, reason: string, code: string): Response {
  return consolePage(c, {
    title: `No access to ${SECTION_TITLES[section]}`,
    section,
    status: 403,
    body: (
      <section class="refusal" aria-labelledby="refusal-heading">
        <h2 id="refusal-heading">You don't have access to this page</h2>
        <p>{refusalText(reason, code)}</p>
        <p>
          An owner of the tenant grants access. You can ask for it under{' '}
          <a href={`${consoleBase(c)}/access/my-access`}>Manage My Access</a>.
        </p>
      </section>
    ),
  });
}

/** The 404 page: nothing of that name in this tenant (another tenant's record looks exactly the same). */
export function notFoundPage(c: ConsoleContext, section: RecordSection, what: string): Response {
  return consolePage(c, {
    title: 'Not found',
    section,
    status: 404,
    body: (
      <section class="refusal" aria-labelledby="missing-heading">
        <h2 id="missing-heading">{what} was not found</h2>
        <p>There is no such record in this tenant. It may have been removed, or the link may belong to another tenant.</p>
        <p>
          <a href={`${consoleBase(c)}/${section}`}>Back to {SECTION_TITLES[section]}</a>
        </p>
      </section>
    ),
  });
}

const FAILURE_TITLES: Partial<Record<number, string>> = {
  400: 'This address is not valid',
  409: 'Not available yet',
  422: 'Cannot be done',
  423: 'Withheld',
  503: 'Temporarily unavailable',
};

/** A service's refusal as a page: 403 and 404 as above, the other statuses in the service's words. */
export function failurePage(c: ConsoleContext, section: RecordSection, err: unknown, what = 'The record'): Response {
  if (!(err instanceof AppError)) throw err;
  if (err.status === 404) return notFoundPage(c, section, what);
  if (err.status === 403) return refusalPage(c, section, err.code, SECTION_CODES[section]);
  const title = FAILURE_TITLES[err.status];
  if (!title) throw err;
  return consolePage(c, {
    title,
    section,
    status: err.status as 400 | 409 | 422 | 423 | 503,
    body: (
      <section class="refusal" aria-labelledby="failure-heading">
        <h2 id="failure-heading">{title}</h2>
        <p>{/[.!?]$/.test(err.detail) ? err.detail : `${err.detail}.`}</p>
        <p>
          <a href={`${consoleBase(c)}/${section}`}>Back to {SECTION_TITLES[section]}</a>
        </p>
      </section>
    ),
  });
}

/** Runs a page, turning the services' refusals into pages (anything else stays a bug for onError). */
export const recordPage =
  (section: RecordSection, run: (c: ConsoleContext) => Promise<Response>, what?: string) =>
  async (c: ConsoleContext): Promise<Response> => {
    try {
      return await run(c);
    } catch (err) {
      return failurePage(c, section, err, what);
    }
  };

/** The keyset of a list page: `cursor` (the API's nextCursor) and `limit` (1-200, as the API takes it). */
export function pageQuery(c: ConsoleContext, defaultLimit = 25): { cursor: string | undefined; limit: number } {
  const cursor = c.req.query('cursor') || undefined;
  if (cursor !== undefined && cursor.length > 200) throw new AppError('invalid-cursor', 'The page position in this address is not valid');
  const raw = c.req.query('limit');
  if (raw === undefined || raw === '') return { cursor, limit: defaultLimit };
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new AppError('validation-failed', 'The page size must be a whole number from 1 to 200');
  return { cursor, limit };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The record id of the path: anything but a UUID names no record (the 404 page, as the API's 404). */
export function idParam(c: ConsoleContext): string {
  const id = c.req.param('id') ?? '';
  if (!UUID.test(id)) throw new AppError('route-not-found', 'No record has this id');
  return id;
}
