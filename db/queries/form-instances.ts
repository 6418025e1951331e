import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { formInstances, type FormInstanceState } from '../schema/forms';

export type FormInstanceRow = typeof formInstances.$inferSelect;
export type NewFormInstance = typeof formInstances.$inferInsert;

export async function insertFormInstance(db: DbOrTx, row: NewFormInstance): Promise<FormInstanceRow> {
  const [created] = await db.insert(formInstances).values(row).returning();
  return created!;
}

export async function findFormInstance(db: DbOrTx, p: { tenantId: string; id: string; forUpdate?: boolean }): Promise<FormInstanceRow | null> {
  const query = db
    .select()
    .from(formInstances)
    .where(and(eq(formInstances.tenantId, p.tenantId), eq(formInstances.id, p.id)));
  const rows = p.forUpdate ? await query.for('update') : await query;
  return rows[0] ?? null;
}

/** Newest first, keyset-paged by (createdAt, id). */
export async function listFormInstances(
  db: DbOrTx,
  p: { tenantId: string; definitionCode?: string; state?: FormInstanceState; before: { createdAt: Date; id: string } | null; limit: number },
): Promise<FormInstanceRow[]> {
  const t = formInstances;
  return db
    .select()
    .from(t)
    .where(
      and(
        eq(t.tenantId, p.tenantId),
        p.definitionCode ? eq(t.definitionCode, p.definitionCode) : undefined,
        p.state ? eq(t.state, p.state) : undefined,
        p.before ? or(lt(t.createdAt, p.before.createdAt), and(eq(t.createdAt, p.before.createdAt), lt(t.id, p.before.id))) : undefined,
      ),
    )
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(p.limit);
}

/** Optimistic update: null when the row is not at `version` any more (or not there). */
export async function updateFormInstance(
  db: DbOrTx,
  p: { tenantId: string; id: string; version: number },
  set: Partial<Pick<FormInstanceRow, 'state' | 'data' | 'context' | 'submittedAt'>>,
): Promise<FormInstanceRow | null> {
  const rows = await db
    .update(formInstances)
    .set({ ...set, version: sql`${formInstances.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(formInstances.tenantId, p.tenantId), eq(formInstances.id, p.id), eq(formInstances.version, p.version)))
    .returning();
  return rows[0] ?? null;
}

/** Merges keys into the context and may move the state; the counter moves (a workflow write-back). */
export async function mergeFormInstanceContext(
  db: DbOrTx,
  p: { tenantId: string; id: string },
  context: Record<string, unknown>,
  state?: FormInstanceState,
): Promise<FormInstanceRow | null> {
  const rows = await db
    .update(formInstances)
    .set({
      context: sql`${formInstances.context} || ${JSON.stringify(context)}::jsonb`,
      ...(state ? { state } : {}),
      version: sql`${formInstances.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(formInstances.tenantId, p.tenantId), eq(formInstances.id, p.id)))
    .returning();
  return rows[0] ?? null;
}
