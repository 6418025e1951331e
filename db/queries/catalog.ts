import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { capabilities } from '../schema/access';

export type CapabilityRow = typeof capabilities.$inferSelect;
export type CapabilityInput = Pick<CapabilityRow, 'code' | 'name' | 'route' | 'icon' | 'status' | 'tier'>;

export async function listCapabilities(db: DbOrTx) {
  return db.select().from(capabilities).orderBy(asc(capabilities.code));
}

export async function getCapability(db: DbOrTx, code: string) {
  const rows = await db.select().from(capabilities).where(eq(capabilities.code, code));
  return rows[0] ?? null;
}

export async function insertCapability(db: DbOrTx, input: CapabilityInput) {
  const rows = await db.insert(capabilities).values(input).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export async function upsertCapability(db: DbOrTx, input: CapabilityInput) {
  const { code: _key, ...rest } = input;
  const rows = await db
    .insert(capabilities)
    .values(input)
    .onConflictDoUpdate({ target: capabilities.code, set: { ...rest, updatedAt: sql`now()` } })
    // xmax = 0 only on a freshly inserted tuple: tells create (201) from replace (200).
    .returning({ ...getTableColumns(capabilities), inserted: sql<boolean>`(xmax = 0)` });
  const { inserted, ...row } = rows[0]!;
  return { row: row as CapabilityRow, inserted };
}

export async function retireCapability(db: DbOrTx, code: string) {
  const rows = await db
    .update(capabilities)
    .set({ status: 'RETIRED', updatedAt: sql`now()` })
    .where(eq(capabilities.code, code))
    .returning();
  return rows[0] ?? null;
}

export async function capabilityNames(db: DbOrTx): Promise<Map<string, string>> {
  const rows = await db.select({ code: capabilities.code, name: capabilities.name }).from(capabilities);
  return new Map(rows.map((r) => [r.code, r.name]));
}
