import type { DbOrTx } from '../../db/client';
import { holidaysFromInstant, loadCalendarSnapshot } from '../../db/queries/calendar-snapshot';
import { getAssociation } from '../../db/queries/process-calendars';
import { calculateSla, parseInstant, type SlaBudget, type SlaResult } from '../../domain/calendar/index';
import { conflict, notFound } from '../../domain/errors';
import type { SlaCalculation } from '../../domain/calendar/sla-process';

export type { SlaCalculation };

/**
 * The one path from a tenant's SLA request to a due date, shared by `POST /api/sla/calculate` and
 * the `calculateSlaDueDate` activity. Errors are AppErrors: 404 `calendar-not-found` and
 * `process-calendar-not-found`, 409 `process-calendar-inactive`, and the engine's
 * `calendar-inactive-calendar` (409), `calendar-unreachable` (422), `calendar-invalid-input` (400).
 */
export async function calculateTenantSla(db: DbOrTx, tenantId: string, request: SlaCalculation): Promise<SlaResult> {
  const received = parseInstant(request.receivedDateTime, request.receivedTimezone, 'receivedDateTime').instant;
  const holidaysFrom = holidaysFromInstant(received);
  let budget: SlaBudget;
  let snapshot;
  if ('processDefinitionKey' in request) {
    const association = await getAssociation(db, { tenantId, processDefinitionKey: request.processDefinitionKey });
    if (!association) throw notFound('Process calendar association', 'process-calendar-not-found');
    if (!association.active) {
      throw conflict('process-calendar-inactive', `The association of ${request.processDefinitionKey} is not active`);
    }
    budget = { businessDays: association.slaBusinessDays, businessMinutes: association.slaBusinessMinutes };
    snapshot = await loadCalendarSnapshot(db, { tenantId, calendarId: association.calendarId, holidaysFrom });
  } else {
    budget = request.sla;
    snapshot = await loadCalendarSnapshot(db, { tenantId, calendarCode: request.calendarCode, holidaysFrom });
  }
  if (!snapshot) throw notFound('Calendar', 'calendar-not-found');
  return calculateSla(snapshot, {
    receivedDateTime: request.receivedDateTime,
    ...(request.receivedTimezone !== undefined ? { receivedTimezone: request.receivedTimezone } : {}),
    sla: budget,
  });
}
