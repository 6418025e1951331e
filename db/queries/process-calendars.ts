import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { businessCalendars, processCalendarAssociations, type Priority } from '../schema/calendars';

export interface AssociationValues {
  processDefinitionKey: string;
  calendarId: string;
  slaBusinessDays: number;
  slaBusinessMinutes: number;
  priority: Priority;
  active: boolean;
}

const ownColumns = {
  id: processCalendarAssociations.id,
  processDefinitionKey: processCalendarAssociations.processDefinitionKey,
  calendarId: processCalendarAssociations.calendarId,
  slaBusinessDays: processCalendarAssociations.slaBusinessDays,
  slaBusinessMinutes: processCalendarAssociations.slaBusinessMinutes,
  priority: processCalendarAssociations.priority,
  active: processCalendarAssociations.active,
  createdAt: processCalendarAssociations.createdAt,
  updatedAt: processCalendarAssociations.updatedAt,
};

/** Association columns plus the calendar's code (the spec's calendarCode), joined at read time. */
const columns = { ...ownColumns, calendarCode: businessCalendars.calendarCode };

export type AssociationRow = {
  id: string;
  processDefinitionKey: string;
  calendarId: string;
  calendarCode: string;
  slaBusinessDays: number;
  slaBusinessMinutes: number;
  priority: Priority;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
};

const joined = (db: DbOrTx) =>
  db
    .select(columns)
    .from(processCalendarAssociations)
    .innerJoin(businessCalendars, eq(businessCalendars.id, processCalendarAssociations.calendarId));

export async function listAssociations(db: DbOrTx, { tenantId }: { tenantId: string }): Promise<AssociationRow[]> {
  return joined(db)
    .where(eq(processCalendarAssociations.tenantId, tenantId))
    .orderBy(asc(processCalendarAssociations.processDefinitionKey));
}

export async function getAssociation(
  db: DbOrTx,
  { tenantId, processDefinitionKey }: { tenantId: string; processDefinitionKey: string },
): Promise<AssociationRow | null> {
  const rows = await joined(db).where(
    and(eq(processCalendarAssociations.tenantId, tenantId), eq(processCalendarAssociations.processDefinitionKey, processDefinitionKey)),
  );
  return rows[0] ?? null;
}

/** The written row; `calendarCode` is the code of the calendar `values.calendarId` names (the caller looked it up). */
export async function insertAssociation(
  db: DbOrTx,
  { tenantId, values, calendarCode }: { tenantId: string; values: AssociationValues; calendarCode: string },
): Promise<AssociationRow> {
  const rows = await db
    .insert(processCalendarAssociations)
    .values({ tenantId, ...values })
    .returning(ownColumns);
  return { ...rows[0]!, calendarCode };
}

/** As insertAssociation; null when the tenant has no association `processDefinitionKey`. */
export async function updateAssociation(
  db: DbOrTx,
  {
    tenantId,
    processDefinitionKey,
    values,
    calendarCode,
  }: { tenantId: string; processDefinitionKey: string; values: AssociationValues; calendarCode: string },
): Promise<AssociationRow | null> {
  const rows = await db
    .update(processCalendarAssociations)
    .set({ ...values, updatedAt: sql`now()` })
    .where(
      and(eq(processCalendarAssociations.tenantId, tenantId), eq(processCalendarAssociations.processDefinitionKey, processDefinitionKey)),
    )
    .returning(ownColumns);
  return rows[0] ? { ...rows[0], calendarCode } : null;
}

export async function deleteAssociation(
  db: DbOrTx,
  { tenantId, processDefinitionKey }: { tenantId: string; processDefinitionKey: string },
) {
  const rows = await db
    .delete(processCalendarAssociations)
    .where(
      and(eq(processCalendarAssociations.tenantId, tenantId), eq(processCalendarAssociations.processDefinitionKey, processDefinitionKey)),
    )
    .returning({ id: processCalendarAssociations.id });
  return rows.length > 0;
}
