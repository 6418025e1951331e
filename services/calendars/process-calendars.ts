import type { z } from 'zod';
import type { DbOrTx } from '../../db/client';
import { getCalendarRow } from '../../db/queries/calendars';
import {
  deleteAssociation,
  getAssociation,
  insertAssociation,
  listAssociations,
  updateAssociation,
  type AssociationRow,
  type AssociationValues,
} from '../../db/queries/process-calendars';
import type { processCalendarAssociationInputSchema } from '../../domain/calendar/index';
import { AppError, notFound } from '../../domain/errors';
import { uniqueOr409 } from './unique-conflict';

/** An association of a process definition with a calendar and SLA budget, as a caller gives it. */
export type ProcessCalendarInput = z.output<typeof processCalendarAssociationInputSchema>;
/** A replacement: a different processDefinitionKey renames the association. */
export type ProcessCalendarReplacement = Omit<ProcessCalendarInput, 'processDefinitionKey'> & {
  processDefinitionKey?: string | undefined;
};

interface AssociationKey {
  tenantId: string;
  processDefinitionKey: string;
}

/** 422 `unknown-calendar` when calendarCode names no calendar of the tenant. */
async function associationValues(db: DbOrTx, tenantId: string, b: ProcessCalendarInput): Promise<AssociationValues> {
  const calendar = await getCalendarRow(db, { tenantId, calendarCode: b.calendarCode });
  if (!calendar) throw new AppError('unknown-calendar', `The tenant has no calendar ${b.calendarCode}`);
  return {
    processDefinitionKey: b.processDefinitionKey,
    calendarId: calendar.id,
    slaBusinessDays: b.slaBusinessDays,
    slaBusinessMinutes: b.slaBusinessMinutes,
    priority: b.priority,
    active: b.active,
  };
}

/** Process associations by processDefinitionKey. */
export async function listProcessCalendars(db: DbOrTx, { tenantId }: { tenantId: string }) {
  return listAssociations(db, { tenantId });
}

/** One association; 404 `process-calendar-not-found`. */
export async function getProcessCalendar(db: DbOrTx, key: AssociationKey): Promise<AssociationRow> {
  const row = await getAssociation(db, key);
  if (!row) throw notFound(`Process calendar association ${key.processDefinitionKey}`, 'process-calendar-not-found');
  return row;
}

/** 409 `process-calendar-exists` when the key has one already. */
export async function createProcessCalendar(
  db: DbOrTx,
  { tenantId, association }: { tenantId: string; association: ProcessCalendarInput },
) {
  const values = await associationValues(db, tenantId, association);
  return uniqueOr409(
    () => insertAssociation(db, { tenantId, values, calendarCode: association.calendarCode }),
    'process-calendar-exists',
    `Process ${association.processDefinitionKey} has an association already`,
  );
}

/** Replaces association `processDefinitionKey`; 409 `process-calendar-exists` when a rename hits a taken key. */
export async function updateProcessCalendar(
  db: DbOrTx,
  { association, ...key }: AssociationKey & { association: ProcessCalendarReplacement },
): Promise<AssociationRow> {
  await getProcessCalendar(db, key);
  const values = await associationValues(db, key.tenantId, {
    ...association,
    processDefinitionKey: association.processDefinitionKey ?? key.processDefinitionKey,
  });
  const row = await uniqueOr409(
    () => updateAssociation(db, { ...key, values, calendarCode: association.calendarCode }),
    'process-calendar-exists',
    `Process ${values.processDefinitionKey} has an association already`,
  );
  if (!row) throw notFound(`Process calendar association ${key.processDefinitionKey}`, 'process-calendar-not-found');
  return row;
}

export async function deleteProcessCalendar(db: DbOrTx, key: AssociationKey) {
  if (!(await deleteAssociation(db, key))) {
    throw notFound(`Process calendar association ${key.processDefinitionKey}`, 'process-calendar-not-found');
  }
}
