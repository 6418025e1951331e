import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { businessHours, holidays } from '../schema/calendars';

export type HoursRow = typeof businessHours.$inferSelect;
export type HolidayRow = typeof holidays.$inferSelect;

export type HoursValues = Omit<typeof businessHours.$inferInsert, 'id' | 'tenantId' | 'locationId' | 'createdAt' | 'updatedAt'>;
export type HolidayValues = Omit<typeof holidays.$inferInsert, 'id' | 'tenantId' | 'locationId' | 'createdAt' | 'updatedAt'>;

export async function listHours(db: DbOrTx, { tenantId, locationId }: { tenantId: string; locationId: string }) {
  return db
    .select()
    .from(businessHours)
    .where(and(eq(businessHours.tenantId, tenantId), eq(businessHours.locationId, locationId)))
    .orderBy(asc(businessHours.dayOfWeek), asc(businessHours.startTime), asc(businessHours.createdAt));
}

export async function insertHours(
  db: DbOrTx,
  { tenantId, locationId, values }: { tenantId: string; locationId: string; values: HoursValues },
): Promise<HoursRow> {
  const rows = await db
    .insert(businessHours)
    .values({ tenantId, locationId, ...values })
    .returning();
  return rows[0]!;
}

export async function deleteHours(db: DbOrTx, { tenantId, locationId, id }: { tenantId: string; locationId: string; id: string }) {
  const rows = await db
    .delete(businessHours)
    .where(and(eq(businessHours.tenantId, tenantId), eq(businessHours.locationId, locationId), eq(businessHours.id, id)))
    .returning({ id: businessHours.id });
  return rows.length > 0;
}

/** Holidays of a location by date; with `year`, that year's dated holidays and every recurring one. */
export async function listHolidayRows(
  db: DbOrTx,
  { tenantId, locationId, year }: { tenantId: string; locationId: string; year?: number | undefined },
) {
  const scope = and(eq(holidays.tenantId, tenantId), eq(holidays.locationId, locationId));
  const inYear =
    year === undefined
      ? undefined
      : or(eq(holidays.recurring, true), sql`${holidays.date} >= make_date(${year}, 1, 1) and ${holidays.date} < make_date(${year + 1}, 1, 1)`);
  return db
    .select()
    .from(holidays)
    .where(inYear ? and(scope, inYear) : scope)
    .orderBy(asc(holidays.date), asc(holidays.name));
}

export async function insertHolidays(
  db: DbOrTx,
  { tenantId, locationId, values }: { tenantId: string; locationId: string; values: HolidayValues[] },
): Promise<HolidayRow[]> {
  if (values.length === 0) return [];
  return db
    .insert(holidays)
    .values(values.map((v) => ({ tenantId, locationId, ...v })))
    .returning();
}

export async function deleteHoliday(db: DbOrTx, { tenantId, locationId, id }: { tenantId: string; locationId: string; id: string }) {
  const rows = await db
    .delete(holidays)
    .where(and(eq(holidays.tenantId, tenantId), eq(holidays.locationId, locationId), eq(holidays.id, id)))
    .returning({ id: holidays.id });
  return rows.length > 0;
}
