// The tenant's phone defaults (one row per tenant, optimistic version).
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { phoneSettings } from '../schema/phone';

export type PhoneSettingsRow = typeof phoneSettings.$inferSelect;

export async function getPhoneSettings(db: DbOrTx, tenantId: string) {
  const rows = await db.select().from(phoneSettings).where(eq(phoneSettings.tenantId, tenantId));
  return rows[0] ?? null;
}

export interface PhoneDefaults {
  defaultAssistantId: string | null;
  defaultPhoneNumberId: string | null;
}

/** The first write only: null when the tenant's row exists already. */
export async function insertPhoneSettingsIfAbsent(db: DbOrTx, tenantId: string, defaults: PhoneDefaults, by: string) {
  const rows = await db
    .insert(phoneSettings)
    .values({ tenantId, ...defaults, updatedBy: by })
    .onConflictDoNothing({ target: phoneSettings.tenantId })
    .returning();
  return rows[0] ?? null;
}

/**
 * Creates the row on first write. With `expectedVersion` the write only lands on that version
 * (null: someone else wrote in between, or there is no row yet when a version was expected).
 */
export async function writePhoneSettings(
  db: DbOrTx,
  { tenantId, defaults, by, expectedVersion }: { tenantId: string; defaults: PhoneDefaults; by: string; expectedVersion?: number | undefined },
) {
  if (expectedVersion === undefined) {
    const rows = await db
      .insert(phoneSettings)
      .values({ tenantId, ...defaults, updatedBy: by })
      .onConflictDoUpdate({
        target: phoneSettings.tenantId,
        set: { ...defaults, updatedBy: by, updatedAt: sql`now()`, version: sql`${phoneSettings.version} + 1` },
      })
      .returning();
    return rows[0]!;
  }
  const rows = await db
    .update(phoneSettings)
    .set({ ...defaults, updatedBy: by, updatedAt: sql`now()`, version: sql`${phoneSettings.version} + 1` })
    .where(and(eq(phoneSettings.tenantId, tenantId), eq(phoneSettings.version, expectedVersion)))
    .returning();
  return rows[0] ?? null;
}
