// SLA clocks and their history (migration 0025). The clock's row lock serialises its steps: the
// operations and the process's timer step each read it FOR UPDATE, compute, and write it back.
import { and, desc, eq, getTableColumns, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { KeysetPosition } from '../../domain/keyset-cursor';
import type { DbOrTx } from '../client';
import { businessCalendars, processCalendarAssociations } from '../schema/calendars';
import { slaClockEvents, slaClocks } from '../schema/sla-clocks';
import { afterKeyset, keysetTimestamp } from './keyset';

export type SlaClockRow = typeof slaClocks.$inferSelect;
export type SlaClockValues = typeof slaClocks.$inferInsert;
export type SlaClockEventRow = typeof slaClockEvents.$inferSelect;
/** A clock with its calendar's code, as reads answer it. */
export type SlaClockListRow = SlaClockRow & { effectiveCalendarId: string; calendarCode: string; cursorAt: string };

/** The association a clock starts on, with its calendar's code and current rules version; null when the tenant has none. */
export async function readClockAssociation(db: DbOrTx, { tenantId, processDefinitionKey }: { tenantId: string; processDefinitionKey: string }) {
  const rows = await db
    .select({
      id: processCalendarAssociations.id,
      active: processCalendarAssociations.active,
      calendarId: processCalendarAssociations.calendarId,
      calendarCode: businessCalendars.calendarCode,
      rulesVersion: businessCalendars.rulesVersion,
    })
    .from(processCalendarAssociations)
    .innerJoin(businessCalendars, eq(businessCalendars.id, processCalendarAssociations.calendarId))
    .where(and(eq(processCalendarAssociations.tenantId, tenantId), eq(processCalendarAssociations.processDefinitionKey, processDefinitionKey)));
  return rows[0] ?? null;
}

/** The association's calendar when it still exists, else the clock's own. */
const associationCalendarOr = (processCalendarId: SQLWrapper | string | null, calendarId: SQLWrapper | string) =>
  sql`coalesce((select a.calendar_id from ${processCalendarAssociations} a where a.id = ${processCalendarId}), ${calendarId})`;

/**
 * The calendar a clock computes with, its code and current rules version: a live clock runs on its
 * association's calendar (pass `processCalendarId`), so a moved association moves it; a finished
 * one, or one whose association is gone, on its own. Null when the calendar is gone.
 */
export async function readClockCalendar(
  db: DbOrTx,
  { tenantId, calendarId, processCalendarId }: { tenantId: string; calendarId: string; processCalendarId: string | null },
) {
  const rows = await db
    .select({ calendarId: businessCalendars.id, calendarCode: businessCalendars.calendarCode, rulesVersion: businessCalendars.rulesVersion })
    .from(businessCalendars)
    .where(and(eq(businessCalendars.tenantId, tenantId), eq(businessCalendars.id, sql`${associationCalendarOr(processCalendarId, calendarId)}::uuid`)));
  return rows[0] ?? null;
}

export async function insertSlaClock(db: DbOrTx, { values }: { values: SlaClockValues }): Promise<SlaClockRow> {
  const rows = await db.insert(slaClocks).values(values).returning();
  return rows[0]!;
}

/** The clock a workflow's activity started with this key (see startSlaClock); null when none. */
export async function findSlaClockIdByStartKey(db: DbOrTx, { tenantId, startKey }: { tenantId: string; startKey: string }): Promise<string | null> {
  const rows = await db
    .select({ id: slaClocks.id })
    .from(slaClocks)
    .where(and(eq(slaClocks.tenantId, tenantId), eq(slaClocks.startKey, startKey)));
  return rows[0]?.id ?? null;
}

/** The clock, locked for this transaction; null when the tenant has no such clock. */
export async function lockSlaClock(db: DbOrTx, { tenantId, id }: { tenantId: string; id: string }): Promise<SlaClockRow | null> {
  const rows = await db
    .select()
    .from(slaClocks)
    .where(and(eq(slaClocks.tenantId, tenantId), eq(slaClocks.id, id)))
    .for('update');
  return rows[0] ?? null;
}

export async function updateSlaClock(
  db: DbOrTx,
  { id, values }: { id: string; values: Partial<Omit<SlaClockValues, 'id' | 'tenantId' | 'createdAt' | 'createdBy'>> },
) {
  await db
    .update(slaClocks)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(slaClocks.id, id));
}

/** The calendar a clock runs on now (see readClockCalendar). */
const effectiveCalendarId = sql`case when ${slaClocks.state} in ('RUNNING', 'PAUSED')
  then ${associationCalendarOr(slaClocks.processCalendarId, slaClocks.calendarId)} else ${slaClocks.calendarId} end`;

const listColumns = {
  ...getTableColumns(slaClocks),
  effectiveCalendarId: businessCalendars.id,
  calendarCode: businessCalendars.calendarCode,
  cursorAt: keysetTimestamp(slaClocks.createdAt),
};

/** One clock with its calendar's code; null when the tenant has no such clock. */
export async function getSlaClock(db: DbOrTx, { tenantId, id }: { tenantId: string; id: string }): Promise<SlaClockListRow | null> {
  const rows = await db
    .select(listColumns)
    .from(slaClocks)
    .innerJoin(businessCalendars, eq(businessCalendars.id, effectiveCalendarId))
    .where(and(eq(slaClocks.tenantId, tenantId), eq(slaClocks.id, id)));
  return rows[0] ?? null;
}

/** Newest first, keyset-paged on (createdAt, id); filtered by subject and state. */
export async function listSlaClocks(
  db: DbOrTx,
  q: { tenantId: string; subjectKind?: string; subjectId?: string; state?: SlaClockRow['state']; limit: number; after?: KeysetPosition },
): Promise<SlaClockListRow[]> {
  const where: SQL[] = [eq(slaClocks.tenantId, q.tenantId)];
  if (q.subjectKind !== undefined) where.push(eq(slaClocks.subjectKind, q.subjectKind));
  if (q.subjectId !== undefined) where.push(eq(slaClocks.subjectId, q.subjectId));
  if (q.state !== undefined) where.push(eq(slaClocks.state, q.state));
  if (q.after) where.push(afterKeyset(slaClocks, q.after, 'desc'));
  return db
    .select(listColumns)
    .from(slaClocks)
    .innerJoin(businessCalendars, eq(businessCalendars.id, effectiveCalendarId))
    .where(and(...where))
    .orderBy(desc(slaClocks.createdAt), desc(slaClocks.id))
    .limit(q.limit);
}

export async function insertSlaClockEvents(
  db: DbOrTx,
  { tenantId, clockId, events }: { tenantId: string; clockId: string; events: readonly { kind: string; at: Date; detail: Record<string, unknown> }[] },
) {
  if (events.length === 0) return;
  await db.insert(slaClockEvents).values(events.map((e) => ({ tenantId, clockId, kind: e.kind, at: e.at, detail: e.detail })));
}

/** The clock's history, oldest first, at most `limit` of its latest events. */
export async function listSlaClockEvents(db: DbOrTx, { clockId, limit }: { clockId: string; limit: number }): Promise<SlaClockEventRow[]> {
  const latest = await db.select().from(slaClockEvents).where(eq(slaClockEvents.clockId, clockId)).orderBy(desc(slaClockEvents.id)).limit(limit);
  return latest.reverse();
}


