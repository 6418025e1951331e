// The tenant's phone numbers: reserved, then registered at the provider (or failed), and the
// registered ones served and routed.
import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { phoneNumbers } from '../schema/phone';

export type PhoneNumberRow = typeof phoneNumbers.$inferSelect;

/** A number created at the provider and recorded: the only kind served and routed. */
export type RegisteredNumberRow = PhoneNumberRow & { providerNumberId: string; registration: 'REGISTERED' };
const registered = eq(phoneNumbers.registration, 'REGISTERED');
const asRegistered = (rows: PhoneNumberRow[]) => rows as RegisteredNumberRow[];

/** Reserves a number's row (PENDING, no provider id) before the provider is asked. */
export async function reservePhoneNumber(db: DbOrTx, values: Omit<typeof phoneNumbers.$inferInsert, 'registration' | 'providerNumberId'>) {
  const rows = await db.insert(phoneNumbers).values({ ...values, registration: 'PENDING' }).returning();
  return rows[0]!;
}

/** Records what the provider created on the reserved row. */
export async function registerPhoneNumber(
  db: DbOrTx,
  id: string,
  values: Pick<PhoneNumberRow, 'providerNumberId' | 'number' | 'name' | 'assistantId' | 'providerStatus'>,
) {
  const rows = await db
    .update(phoneNumbers)
    .set({ ...values, registration: 'REGISTERED' })
    .where(and(eq(phoneNumbers.id, id), eq(phoneNumbers.registration, 'PENDING')))
    .returning();
  return asRegistered(rows)[0] ?? null;
}

/** Keeps a number the provider created that could not be recorded, with why. */
export async function markPhoneNumberFailed(db: DbOrTx, id: string, providerNumberId: string, error: string) {
  await db.update(phoneNumbers).set({ providerNumberId, registration: 'FAILED', registrationError: error }).where(eq(phoneNumbers.id, id));
}

/** Drops a reservation the provider refused (nothing exists at the provider). */
export async function releasePhoneNumber(db: DbOrTx, id: string) {
  await db.delete(phoneNumbers).where(and(eq(phoneNumbers.id, id), eq(phoneNumbers.registration, 'PENDING')));
}

export async function listPhoneNumbers(db: DbOrTx, tenantId: string) {
  return asRegistered(
    await db
      .select()
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.tenantId, tenantId), registered))
      .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id)),
  );
}

export async function getPhoneNumber(db: DbOrTx, tenantId: string, id: string) {
  const rows = await db
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.tenantId, tenantId), eq(phoneNumbers.id, id), registered));
  return asRegistered(rows)[0] ?? null;
}

/** Any tenant's number by provider id: inbound routing and the cross-tenant check on placement. */
export async function findPhoneNumberByProviderId(db: DbOrTx, providerNumberId: string) {
  const rows = await db.select().from(phoneNumbers).where(and(eq(phoneNumbers.providerNumberId, providerNumberId), registered));
  return asRegistered(rows)[0] ?? null;
}

/** Every registered row holding these digits (at most a few; several means the routing is ambiguous). */
export async function findPhoneNumbersByE164(db: DbOrTx, number: string) {
  return asRegistered(await db.select().from(phoneNumbers).where(and(eq(phoneNumbers.number, number), registered)).limit(2));
}
