import { and, asc, eq, getTableColumns, inArray, isNotNull, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { KeysetPosition } from '../../domain/keyset-cursor';
import type { DbOrTx } from '../client';
import { outbox } from '../schema/outbox';
import { documentProcesses, documents } from '../schema/documents';
import { afterKeyset, keysetTimestamp } from './keyset';

export type DocumentRow = typeof documents.$inferSelect;
export type NewDocument = typeof documents.$inferInsert;
export type DocumentChanges = Partial<
  Omit<NewDocument, 'id' | 'tenantId' | 'version' | 'createdAt' | 'updatedAt' | 'createdBy' | 'createdByName'>
>;

export async function insertDocument(db: DbOrTx, values: NewDocument): Promise<DocumentRow> {
  const rows = await db.insert(documents).values(values).returning();
  return rows[0]!;
}

/** Tenant-scoped: a row of another tenant is simply not found. */
export async function getDocument(db: DbOrTx, tenantId: string, id: string): Promise<DocumentRow | null> {
  const rows = await db
    .select()
    .from(documents)
    .where(and(eq(documents.tenantId, tenantId), eq(documents.id, id)));
  return rows[0] ?? null;
}

/** Optimistic lock: applies only while the row still has `expectedVersion`; null means someone else won. */
export async function updateDocument(
  db: DbOrTx,
  tenantId: string,
  id: string,
  expectedVersion: number,
  changes: DocumentChanges,
): Promise<DocumentRow | null> {
  const rows = await db
    .update(documents)
    .set({ ...changes, version: sql`${documents.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(documents.tenantId, tenantId), eq(documents.id, id), eq(documents.version, expectedVersion)))
    .returning();
  return rows[0] ?? null;
}

export type ListSelector =
  | { processRef: string }
  | { taskId: string }
  | { capability: string; ownerEntityId: string };

export interface ListDocumentsParams {
  tenantId: string;
  selector: ListSelector;
  /** Only rows of these capabilities (none: an empty page). */
  capabilities: readonly string[];
  /** Only rows of these kinds, when given. */
  kinds?: readonly string[];
  after: KeysetPosition | null;
  limit: number;
}

/**
 * One page in (createdAt, id) order after the cursor, only the given capabilities (and kinds), never
 * DELETED rows; `cursorAt` is the row's position for the next page's cursor.
 */
export async function listDocuments(db: DbOrTx, params: ListDocumentsParams): Promise<Array<DocumentRow & { cursorAt: string }>> {
  const { tenantId, selector, capabilities, kinds, after, limit } = params;
  if (capabilities.length === 0 || kinds?.length === 0) return [];
  const where: SQL[] = [
    eq(documents.tenantId, tenantId),
    ne(documents.status, 'DELETED'),
    inArray(documents.capability, capabilities as DocumentRow['capability'][]),
  ];
  if (kinds) where.push(inArray(documents.kind, kinds as DocumentRow['kind'][]));
  if ('processRef' in selector) where.push(eq(documents.processRef, selector.processRef));
  else if ('taskId' in selector) where.push(eq(documents.taskId, selector.taskId));
  else {
    where.push(eq(documents.capability, selector.capability as DocumentRow['capability']));
    where.push(eq(documents.ownerEntityId, selector.ownerEntityId));
  }
  if (after) where.push(afterKeyset(documents, after, 'asc'));
  return db
    .select({ ...getTableColumns(documents), cursorAt: keysetTimestamp(documents.createdAt) })
    .from(documents)
    .where(and(...where))
    .orderBy(asc(documents.createdAt), asc(documents.id))
    .limit(limit);
}

export async function getDocumentProcess(db: DbOrTx, tenantId: string, processRef: string) {
  const rows = await db
    .select()
    .from(documentProcesses)
    .where(and(eq(documentProcesses.tenantId, tenantId), eq(documentProcesses.processRef, processRef)));
  return rows[0] ?? null;
}

/** Inserts the process record unless one exists; returns the record that is now stored. */
export async function recordDocumentProcess(db: DbOrTx, values: typeof documentProcesses.$inferInsert) {
  await db.insert(documentProcesses).values(values).onConflictDoNothing();
  return (await getDocumentProcess(db, values.tenantId, values.processRef))!;
}

/**
 * The workflow a processRef belongs to when the platform started it through the outbox
 * (business key = processRef, a start or signal-with-start row); document-scan rows are the
 * registry's own and never count.
 */
export async function outboxWorkflowFor(db: DbOrTx, tenantId: string, processRef: string): Promise<string | null> {
  const rows = await db
    .select({ workflowId: outbox.workflowId })
    .from(outbox)
    .where(
      and(eq(outbox.tenantId, tenantId), eq(outbox.businessKey, processRef), ne(outbox.capability, 'DOCUMENTS'), ne(outbox.verb, 'signal')),
    )
    .orderBy(asc(outbox.seq))
    .limit(1);
  return rows[0]?.workflowId ?? null;
}

/** Backfill: rows under the processRef that have no instance yet, in the given capabilities; each bumps its version. */
export async function backfillProcessInstance(
  db: DbOrTx,
  tenantId: string,
  processRef: string,
  processInstanceId: string,
  capabilities: readonly string[],
): Promise<number> {
  if (capabilities.length === 0) return 0;
  const rows = await db
    .update(documents)
    // Not a version change: the instance id is server-only and set once, and bumping the counter
    // would refuse with 409 the finalize of an upload that was authorized before the process started.
    .set({ processInstanceId, updatedAt: sql`now()` })
    .where(
      and(
        eq(documents.tenantId, tenantId),
        eq(documents.processRef, processRef),
        isNull(documents.processInstanceId),
        ne(documents.status, 'DELETED'),
        inArray(documents.capability, capabilities as DocumentRow['capability'][]),
      ),
    )
    .returning({ id: documents.id });
  return rows.length;
}

// The status test is a literal, not a parameter, so the partial index documents_retention_idx
// matches even under a generic plan.
const expired = (now: Date) =>
  and(isNotNull(documents.retainUntil), lt(documents.retainUntil, now), sql`${documents.status} <> 'DELETED'`);

/** Dry run: how many rows have passed their horizon, per tenant, and the first few ids. */
export async function findExpiredDocuments(db: DbOrTx, now: Date, sampleSize: number) {
  const byTenant = await db
    .select({ tenantId: documents.tenantId, count: sql<number>`count(*)::int` })
    .from(documents)
    .where(expired(now))
    .groupBy(documents.tenantId)
    .orderBy(asc(documents.tenantId));
  const sample = await db
    .select({ id: documents.id, tenantId: documents.tenantId, retainUntil: documents.retainUntil })
    .from(documents)
    .where(expired(now))
    .orderBy(asc(documents.retainUntil), asc(documents.id))
    .limit(sampleSize);
  return { byTenant, sample };
}

/**
 * Marks up to `limit` expired rows DELETED in one statement (no storage is touched). Rows
 * another writer holds are skipped, not waited for; the lock is the row lock plus the version bump.
 */
export async function markExpiredDocumentsDeleted(db: DbOrTx, now: Date, limit: number) {
  const batch = db
    .select({ id: documents.id })
    .from(documents)
    .where(expired(now))
    .orderBy(asc(documents.retainUntil), asc(documents.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(documents)
    .set({ status: 'DELETED', deletedAt: sql`now()`, updatedAt: sql`now()`, version: sql`${documents.version} + 1` })
    .where(inArray(documents.id, batch))
    .returning({ id: documents.id, tenantId: documents.tenantId });
}
