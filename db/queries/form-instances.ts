import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import type { FormInstanceState } from '../../domain/forms/instance-states';
import type { KeysetPosition } from '../../domain/keyset-cursor';
import { formInstances } from '../schema/forms';
import { afterKeyset, keysetTimestamp } from './keyset';

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

/** Newest first, keyset-paged by (createdAt, id); `cursorAt` is the row's position for the next page's cursor. */
export async function listFormInstances(
  db: DbOrTx,
  p: { tenantId: string; definitionCode?: string; state?: FormInstanceState; before: KeysetPosition | null; limit: number },
): Promise<Array<FormInstanceRow & { cursorAt: string }>> {
  const t = formInstances;
  return db
    .select({ ...getTableColumns(t), cursorAt: keysetTimestamp(t.createdAt) })
    .from(t)
    .where(
      and(
        eq(t.tenantId, p.tenantId),
        p.definitionCode ? eq(t.definitionCode, p.definitionCode) : undefined,
        p.state ? eq(t.state, p.state) : undefined,
        p.before ? afterKeyset(t, p.before, 'desc') : undefined,
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

/** The row lock is the caller's: no version check, the counter moves (an administrative step). */
export async function updateLockedFormInstance(
  db: DbOrTx,
  p: { tenantId: string; id: string; state?: FormInstanceState; context?: Record<string, unknown>; expiresAt?: Date | null },
): Promise<FormInstanceRow> {
  const [updated] = await db
    .update(formInstances)
    .set({
      ...(p.state ? { state: p.state } : {}),
      ...(p.context ? { context: sql`${formInstances.context} || ${JSON.stringify(p.context)}::jsonb` } : {}),
      ...(p.expiresAt !== undefined ? { expiresAt: p.expiresAt } : {}),
      version: sql`${formInstances.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(formInstances.tenantId, p.tenantId), eq(formInstances.id, p.id)))
    .returning();
  return updated!;
}

/** An outbound instance by its recipient token; `forUpdate` takes its row lock. */
export async function findOutboundInstanceByToken(db: DbOrTx, p: { token: string; forUpdate?: boolean }): Promise<FormInstanceRow | null> {
  const query = db
    .select()
    .from(formInstances)
    .where(and(eq(formInstances.token, p.token), eq(formInstances.origin, 'OUTBOUND')));
  const rows = p.forUpdate ? await query.for('update') : await query;
  return rows[0] ?? null;
}

/** The outbound instance a send with this `sendKey` created, if any. */
export async function findSentFormInstance(db: DbOrTx, p: { tenantId: string; sendKey: string }): Promise<FormInstanceRow | null> {
  const [row] = await db
    .select()
    .from(formInstances)
    .where(and(eq(formInstances.tenantId, p.tenantId), eq(formInstances.origin, 'OUTBOUND'), sql`${formInstances.context} @> ${JSON.stringify({ sendKey: p.sendKey })}::jsonb`))
    .limit(1);
  return row ?? null;
}

/** Merges keys into the recipient map; the optimistic-lock counter stays (not a change by anyone). */
export async function mergeFormInstanceRecipient(db: DbOrTx, p: { id: string; fields: Record<string, unknown> }): Promise<FormInstanceRow | null> {
  const [updated] = await db
    .update(formInstances)
    .set({ recipient: sql`${formInstances.recipient} || ${JSON.stringify(p.fields)}::jsonb`, updatedAt: sql`now()` })
    .where(eq(formInstances.id, p.id))
    .returning();
  return updated ?? null;
}

/** Where an instance came from: its definition, origin and context (the embed link's check). */
export async function findFormInstanceOrigin(db: DbOrTx, p: { tenantId: string; id: string }) {
  const [row] = await db
    .select({ definitionId: formInstances.definitionId, origin: formInstances.origin, context: formInstances.context })
    .from(formInstances)
    .where(and(eq(formInstances.tenantId, p.tenantId), eq(formInstances.id, p.id)));
  return row ?? null;
}

/**
 * Open instances (DRAFT, SENT, OPENED) past expiresAt become EXPIRED, at most `batchSize`, oldest
 * deadline first; rows another transaction holds are skipped. Answers the tenant of each.
 */
export async function expireDueFormInstances(db: DbOrTx, p: { batchSize: number }): Promise<string[]> {
  const rows = await db.execute<{ tenant_id: string }>(sql`
    with due as (
      select id from form_instances
      where state in ('DRAFT', 'SENT', 'OPENED') and expires_at is not null and expires_at <= now()
      order by expires_at
      limit ${p.batchSize}
      for update skip locked
    )
    update form_instances f
    set state = 'EXPIRED', version = f.version + 1, updated_at = now()
    from due where f.id = due.id
    returning f.tenant_id`);
  return Array.from(rows, (r) => r.tenant_id);
}
