import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { businessCalendars, calendarLocations } from '../schema/calendars';

export type CalendarRow = typeof businessCalendars.$inferSelect;
export type LocationRow = typeof calendarLocations.$inferSelect;

export type CalendarValues = Pick<CalendarRow, 'calendarCode' | 'name' | 'description' | 'active'> & {
  businessDayMinutes?: number;
};
export type LocationValues = Pick<
  LocationRow,
  'locationCode' | 'name' | 'timezone' | 'country' | 'region' | 'city' | 'enabled' | 'sortOrder'
>;

export async function listCalendarRows(db: DbOrTx, { tenantId }: { tenantId: string }) {
  return db
    .select()
    .from(businessCalendars)
    .where(eq(businessCalendars.tenantId, tenantId))
    .orderBy(asc(businessCalendars.calendarCode));
}

export async function getCalendarRow(
  db: DbOrTx,
  { tenantId, calendarCode }: { tenantId: string; calendarCode: string },
): Promise<CalendarRow | null> {
  const rows = await db
    .select()
    .from(businessCalendars)
    .where(and(eq(businessCalendars.tenantId, tenantId), eq(businessCalendars.calendarCode, calendarCode)));
  return rows[0] ?? null;
}

export async function insertCalendar(
  db: DbOrTx,
  { tenantId, values }: { tenantId: string; values: CalendarValues },
): Promise<CalendarRow> {
  const rows = await db
    .insert(businessCalendars)
    .values({ tenantId, ...values })
    .returning();
  return rows[0]!;
}

export async function updateCalendarRow(
  db: DbOrTx,
  { tenantId, id, values }: { tenantId: string; id: string; values: CalendarValues },
): Promise<CalendarRow | null> {
  const rows = await db
    .update(businessCalendars)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(businessCalendars.tenantId, tenantId), eq(businessCalendars.id, id)))
    .returning();
  return rows[0] ?? null;
}

/** Deletes a calendar by code (cascading to its locations); false when the tenant has no such calendar. */
export async function deleteCalendarRow(db: DbOrTx, { tenantId, calendarCode }: { tenantId: string; calendarCode: string }) {
  const rows = await db
    .delete(businessCalendars)
    .where(and(eq(businessCalendars.tenantId, tenantId), eq(businessCalendars.calendarCode, calendarCode)))
    .returning({ id: businessCalendars.id });
  return rows.length > 0;
}

export async function listLocationRows(db: DbOrTx, { tenantId, calendarId }: { tenantId: string; calendarId: string }) {
  return db
    .select()
    .from(calendarLocations)
    .where(and(eq(calendarLocations.tenantId, tenantId), eq(calendarLocations.calendarId, calendarId)))
    .orderBy(asc(calendarLocations.sortOrder), asc(calendarLocations.locationCode));
}

/**
 * A location by calendar and location code in one round trip: null when the tenant has no such
 * calendar, `{ location: null }` when the calendar has no such location.
 */
export async function findLocation(
  db: DbOrTx,
  { tenantId, calendarCode, locationCode }: { tenantId: string; calendarCode: string; locationCode: string },
): Promise<{ location: LocationRow | null } | null> {
  const rows = await db
    .select({ location: calendarLocations })
    .from(businessCalendars)
    .leftJoin(
      calendarLocations,
      and(
        eq(calendarLocations.tenantId, tenantId),
        eq(calendarLocations.calendarId, businessCalendars.id),
        eq(calendarLocations.locationCode, locationCode),
      ),
    )
    .where(and(eq(businessCalendars.tenantId, tenantId), eq(businessCalendars.calendarCode, calendarCode)));
  return rows[0] ?? null;
}

/** Locks a location row: holiday imports of one location run one at a time (no duplicates). */
export async function lockLocation(tx: DbOrTx, { tenantId, id }: { tenantId: string; id: string }) {
  const rows = await tx
    .select({ id: calendarLocations.id })
    .from(calendarLocations)
    .where(and(eq(calendarLocations.tenantId, tenantId), eq(calendarLocations.id, id)))
    .for('update');
  return rows.length > 0;
}

export async function insertLocation(
  db: DbOrTx,
  { tenantId, calendarId, values }: { tenantId: string; calendarId: string; values: LocationValues },
): Promise<LocationRow> {
  const rows = await db
    .insert(calendarLocations)
    .values({ tenantId, calendarId, ...values })
    .returning();
  return rows[0]!;
}

export async function updateLocationRow(
  db: DbOrTx,
  { tenantId, id, values }: { tenantId: string; id: string; values: LocationValues },
): Promise<LocationRow | null> {
  const rows = await db
    .update(calendarLocations)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(calendarLocations.tenantId, tenantId), eq(calendarLocations.id, id)))
    .returning();
  return rows[0] ?? null;
}

export async function deleteLocationRow(db: DbOrTx, { tenantId, id }: { tenantId: string; id: string }) {
  const rows = await db
    .delete(calendarLocations)
    .where(and(eq(calendarLocations.tenantId, tenantId), eq(calendarLocations.id, id)))
    .returning({ id: calendarLocations.id });
  return rows.length > 0;
}
