import type { DbOrTx } from '../../db/client';
import {
  type CalendarVersion,
  holidaysFromInstant,
  loadCalendarSnapshot,
  readCalendarVersion,
  readSlaCalendarVersion,
} from '../../db/queries/calendar-snapshot';
import { getAssociation } from '../../db/queries/process-calendars';
import { calculateSla, parseInstant, type CalendarSnapshot, type CompiledCalendar, type SlaBudget, type SlaResult } from '../../domain/calendar/index';
import { conflict, notFound } from '../../domain/errors';
import type { SlaCalculation } from '../../domain/calendar/sla-process';
import { type CompiledCalendarCache, compiledCalendarAt } from './compiled-calendars';

export type { SlaCalculation };

/**
 * The one path from a tenant's SLA request to a due date, shared by `POST /api/sla/calculate` and
 * the `calculateSlaDueDate` activity. Errors are AppErrors: 404 `calendar-not-found` and
 * `process-calendar-not-found`, 409 `process-calendar-inactive`, and the engine's
 * `calendar-inactive-calendar` (409), `calendar-unreachable` (422), `calendar-invalid-input` (400).
 *
 * With the process's `calendars` cache, a request reads the calendar's rules version (with the
 * association, for a processDefinitionKey: one round trip) and computes on the compiled calendar
 * of that version, loading and compiling it only when the cache holds an older one or none.
 * Without it, every request loads and compiles the calendar (its holidays from the received time).
 */
export async function calculateTenantSla(
  db: DbOrTx,
  tenantId: string,
  request: SlaCalculation,
  calendars?: CompiledCalendarCache,
): Promise<SlaResult> {
  const received = parseInstant(request.receivedDateTime, request.receivedTimezone, 'receivedDateTime').instant;
  const { budget, calendar } = calendars
    ? await cachedSlaCalendar(db, calendars, tenantId, request)
    : await loadedSlaCalendar(db, tenantId, request, holidaysFromInstant(received));
  return calculateSla(calendar, {
    receivedDateTime: request.receivedDateTime,
    ...(request.receivedTimezone !== undefined ? { receivedTimezone: request.receivedTimezone } : {}),
    sla: budget,
  });
}

function assertAssociationActive<A extends { active: boolean }>(processDefinitionKey: string, association: A | null): asserts association is A {
  if (!association) throw notFound('Process calendar association', 'process-calendar-not-found');
  if (!association.active) {
    throw conflict('process-calendar-inactive', `The association of ${processDefinitionKey} is not active`);
  }
}

async function cachedSlaCalendar(
  db: DbOrTx,
  calendars: CompiledCalendarCache,
  tenantId: string,
  request: SlaCalculation,
): Promise<{ budget: SlaBudget; calendar: CompiledCalendar }> {
  let budget: SlaBudget;
  let version: CalendarVersion | null;
  if ('processDefinitionKey' in request) {
    const association = await readSlaCalendarVersion(db, { tenantId, processDefinitionKey: request.processDefinitionKey });
    assertAssociationActive(request.processDefinitionKey, association);
    budget = { businessDays: association.slaBusinessDays, businessMinutes: association.slaBusinessMinutes };
    version = { calendarId: association.calendarId, rulesVersion: association.rulesVersion };
  } else {
    budget = request.sla;
    version = await readCalendarVersion(db, { tenantId, calendarCode: request.calendarCode });
  }
  const calendar = version && (await compiledCalendarAt(db, calendars, { tenantId, ...version }));
  if (!calendar) throw notFound('Calendar', 'calendar-not-found');
  return { budget, calendar };
}

async function loadedSlaCalendar(
  db: DbOrTx,
  tenantId: string,
  request: SlaCalculation,
  holidaysFrom: string,
): Promise<{ budget: SlaBudget; calendar: CalendarSnapshot }> {
  let budget: SlaBudget;
  let snapshot;
  if ('processDefinitionKey' in request) {
    const association = await getAssociation(db, { tenantId, processDefinitionKey: request.processDefinitionKey });
    assertAssociationActive(request.processDefinitionKey, association);
    budget = { businessDays: association.slaBusinessDays, businessMinutes: association.slaBusinessMinutes };
    snapshot = await loadCalendarSnapshot(db, { tenantId, calendarId: association.calendarId, holidaysFrom });
  } else {
    budget = request.sla;
    snapshot = await loadCalendarSnapshot(db, { tenantId, calendarCode: request.calendarCode, holidaysFrom });
  }
  if (!snapshot) throw notFound('Calendar', 'calendar-not-found');
  return { budget, calendar: snapshot };
}
