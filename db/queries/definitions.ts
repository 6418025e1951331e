// The definition lifecycle's queries, written once against the shapes of db/schema/definitions.ts
// and bound to one capability's tables by `definitionQueries(tables)`. Every query filters by
// tenant: a row of another tenant is simply not found.
import { and, asc, desc, eq, getTableColumns, isNull, lt, max, sql } from 'drizzle-orm';
import type { KeysetPosition } from '../../domain/keyset-cursor';
import type { DbOrTx } from '../client';
import type { AuditTable, DefinitionsTable, DefinitionTables, VersionsTable } from '../schema/definitions';
import { afterKeyset, keysetTimestamp } from './keyset';

export type VersionRow = VersionsTable['$inferSelect'];
export type AuditRow = AuditTable['$inferSelect'];

type Lifecycle = DefinitionsTable['$inferInsert'];
/** Columns a lifecycle step may change; the counter and updatedAt are the update's own. */
export type DefinitionChangeSet = Partial<
  Pick<Lifecycle, 'status' | 'publishedVersion' | 'lockedBy' | 'lockedAt' | 'draftSchema' | 'lastTestedAt' | 'deletedAt' | 'name'>
>;

export interface NewAuditEvent {
  tenantId: string;
  definitionId: string;
  actor: string;
  action: string;
  detail: Record<string, unknown>;
}

export function definitionQueries<D extends DefinitionsTable>(tables: DefinitionTables<D>) {
  // Typed as the lifecycle shape; rows carry every column of the capability's own table, so
  // handing them out as D's rows is true at run time (select() reads the table it is given).
  const defs: DefinitionsTable = tables.definitions;
  const { versions, audit } = tables;
  type Row = D['$inferSelect'];
  const live = isNull(defs.deletedAt);

  return {
    /** A live definition; `forUpdate` takes its row lock, which serialises the steps of one definition. */
    async find(db: DbOrTx, p: { tenantId: string; id: string; forUpdate?: boolean }): Promise<Row | null> {
      const query = db
        .select()
        .from(defs)
        .where(and(eq(defs.tenantId, p.tenantId), eq(defs.id, p.id), live));
      const rows = p.forUpdate ? await query.for('update') : await query;
      return (rows[0] as Row | undefined) ?? null;
    },

    /** Any definition of the tenant, deleted ones included; `forUpdate` takes its row lock (the hard purge). */
    async findAny(db: DbOrTx, p: { tenantId: string; id: string; forUpdate?: boolean }): Promise<Row | null> {
      const query = db
        .select()
        .from(defs)
        .where(and(eq(defs.tenantId, p.tenantId), eq(defs.id, p.id)));
      const rows = p.forUpdate ? await query.for('update') : await query;
      return (rows[0] as Row | undefined) ?? null;
    },

    /** A definition of the tenant ever had a trail: live, deleted, or purged (the trail outlives its definition). */
    async hasTrail(db: DbOrTx, p: { tenantId: string; id: string }): Promise<boolean> {
      const rows = await db
        .select({ id: audit.id })
        .from(audit)
        .where(and(eq(audit.tenantId, p.tenantId), eq(audit.definitionId, p.id)))
        .limit(1);
      return rows.length > 0;
    },

    /** The hard purge: the row goes, its versions with it (foreign key cascade); audit rows stay. */
    async remove(db: DbOrTx, p: { tenantId: string; id: string }): Promise<void> {
      await db.delete(defs).where(and(eq(defs.tenantId, p.tenantId), eq(defs.id, p.id)));
    },

    async findByCode(db: DbOrTx, p: { tenantId: string; code: string }): Promise<Row | null> {
      const rows = await db
        .select()
        .from(defs)
        .where(and(eq(defs.tenantId, p.tenantId), eq(defs.code, p.code), live));
      return (rows[0] as Row | undefined) ?? null;
    },

    /** Newest first, keyset-paged by (createdAt, id); `cursorAt` is the row's position for the next page's cursor. */
    async list(
      db: DbOrTx,
      p: { tenantId: string; status?: Row['status']; before: KeysetPosition | null; limit: number },
    ): Promise<Array<Row & { cursorAt: string }>> {
      const rows = await db
        .select({ ...getTableColumns(defs), cursorAt: keysetTimestamp(defs.createdAt) })
        .from(defs)
        .where(
          and(
            eq(defs.tenantId, p.tenantId),
            live,
            p.status ? eq(defs.status, p.status) : undefined,
            p.before ? afterKeyset(defs, p.before, 'desc') : undefined,
          ),
        )
        .orderBy(desc(defs.createdAt), desc(defs.id))
        .limit(p.limit);
      return rows as Array<Row & { cursorAt: string }>;
    },

    /** `columns` are the capability's own (kind, ...), typed by its table. */
    async insert(db: DbOrTx, p: { values: Lifecycle; columns: Partial<D['$inferInsert']> }): Promise<Row> {
      const rows = await db
        .insert(defs)
        .values({ ...p.columns, ...p.values } as Lifecycle)
        .returning();
      return rows[0] as Row;
    },

    /**
     * Optimistic lock: applies only while the row still has `expectedVersion`; null means someone
     * else won. Live rows only, unless `deleted` (undoing a soft delete).
     */
    async update(
      db: DbOrTx,
      p: { tenantId: string; id: string; expectedVersion: number; changes: DefinitionChangeSet; deleted?: boolean },
    ): Promise<Row | null> {
      const rows = await db
        .update(defs)
        .set({ ...p.changes, version: sql`${defs.version} + 1`, updatedAt: sql`now()` })
        .where(and(eq(defs.tenantId, p.tenantId), eq(defs.id, p.id), eq(defs.version, p.expectedVersion), p.deleted ? undefined : live))
        .returning();
      return (rows[0] as Row | undefined) ?? null;
    },

    async latestVersion(db: DbOrTx, p: { tenantId: string; definitionId: string }): Promise<VersionRow | null> {
      const rows = await db
        .select()
        .from(versions)
        .where(and(eq(versions.tenantId, p.tenantId), eq(versions.definitionId, p.definitionId)))
        .orderBy(desc(versions.version))
        .limit(1);
      return rows[0] ?? null;
    },

    async maxVersion(db: DbOrTx, p: { tenantId: string; definitionId: string }): Promise<number> {
      const rows = await db
        .select({ n: max(versions.version) })
        .from(versions)
        .where(and(eq(versions.tenantId, p.tenantId), eq(versions.definitionId, p.definitionId)));
      return rows[0]?.n ?? 0;
    },

    async findVersion(db: DbOrTx, p: { tenantId: string; definitionId: string; version: number }): Promise<VersionRow | null> {
      const rows = await db
        .select()
        .from(versions)
        .where(and(eq(versions.tenantId, p.tenantId), eq(versions.definitionId, p.definitionId), eq(versions.version, p.version)));
      return rows[0] ?? null;
    },

    /** Oldest first. */
    async listVersions(db: DbOrTx, p: { tenantId: string; definitionId: string }): Promise<VersionRow[]> {
      return db
        .select()
        .from(versions)
        .where(and(eq(versions.tenantId, p.tenantId), eq(versions.definitionId, p.definitionId)))
        .orderBy(asc(versions.version));
    },

    async insertVersion(
      db: DbOrTx,
      p: { tenantId: string; definitionId: string; version: number; schema: unknown; checkedInBy: string; checkedInAt: Date },
    ): Promise<VersionRow> {
      const rows = await db.insert(versions).values(p).returning();
      return rows[0]!;
    },

    /** The one change a version takes (the database refuses any other, and a second sign-off). */
    async signOffVersion(db: DbOrTx, p: { id: string; by: string; at: Date }): Promise<VersionRow> {
      const rows = await db
        .update(versions)
        .set({ signedOffAt: p.at, signedOffBy: p.by })
        .where(and(eq(versions.id, p.id), isNull(versions.signedOffAt)))
        .returning();
      return rows[0]!;
    },

    async insertAudit(db: DbOrTx, e: NewAuditEvent): Promise<void> {
      await db.insert(audit).values(e);
    },

    /** Newest first, keyset-paged by id. */
    async listAudit(db: DbOrTx, p: { tenantId: string; definitionId: string; before?: number; limit: number }): Promise<AuditRow[]> {
      return db
        .select()
        .from(audit)
        .where(and(eq(audit.tenantId, p.tenantId), eq(audit.definitionId, p.definitionId), p.before ? lt(audit.id, p.before) : undefined))
        .orderBy(desc(audit.id))
        .limit(p.limit);
    },
  };
}

export type DefinitionQueries<D extends DefinitionsTable = DefinitionsTable> = ReturnType<typeof definitionQueries<D>>;
