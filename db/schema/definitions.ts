// The columns every versioned definition has (forms now, signatures next), as factories: each
// capability builds its own three tables from them and adds its own columns. The lifecycle's
// queries (db/queries/definitions.ts) are written once against the shapes below, which any
// table built from these factories satisfies (a missing or retyped column does not compile).
import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { DEFINITION_STATUSES } from '../../domain/definitions/lifecycle';
import { tenants } from './access';

const at = (name: string) => timestamp(name, { withTimezone: true });

/** The definition row: status, draft, advisory lock and the optimistic-lock counter `version`. */
export const definitionColumns = () => ({
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: text('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  code: text('code').notNull(),
  name: text('name').notNull(),
  status: text('status', { enum: DEFINITION_STATUSES }).notNull().default('DRAFT'),
  version: integer('version').notNull().default(1),
  draftSchema: jsonb('draft_schema').$type<unknown>().notNull(),
  publishedVersion: integer('published_version'),
  lockedBy: text('locked_by'),
  lockedAt: at('locked_at'),
  lastTestedAt: at('last_tested_at'),
  createdBy: text('created_by').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
  updatedAt: at('updated_at').notNull().defaultNow(),
  deletedAt: at('deleted_at'),
});

/** A checked-in version: immutable but for its one sign-off (a trigger holds that). */
export const versionColumns = (definitionId: () => AnyPgColumn) => ({
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: text('tenant_id').notNull(),
  definitionId: uuid('definition_id')
    .notNull()
    .references(definitionId, { onDelete: 'cascade' }),
  version: integer('version').notNull(),
  schema: jsonb('schema').$type<unknown>().notNull(),
  checkedInBy: text('checked_in_by').notNull(),
  checkedInAt: at('checked_in_at').notNull().defaultNow(),
  signedOffAt: at('signed_off_at'),
  signedOffBy: text('signed_off_by'),
});

/** Audit events outlive their definition (no foreign key); a trigger refuses UPDATE and DELETE. */
export const auditColumns = () => ({
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: text('tenant_id').notNull(),
  definitionId: uuid('definition_id').notNull(),
  action: text('action').notNull(),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  actor: text('actor').notNull(),
  at: at('at').notNull().defaultNow(),
});

type DefinitionsLike = { tenantId: AnyPgColumn; code: AnyPgColumn; createdAt: AnyPgColumn; id: AnyPgColumn; status: AnyPgColumn };
type VersionsLike = { definitionId: AnyPgColumn; version: AnyPgColumn };
type AuditLike = { definitionId: AnyPgColumn; id: AnyPgColumn };

const statusList = sql.raw(DEFINITION_STATUSES.map((s) => `'${s}'`).join(', '));

/** Indexes and checks each capability's tables need, named after the table. */
export const definitionConstraints = (table: string) => (t: DefinitionsLike) => [
  uniqueIndex(`${table}_code_idx`).on(t.tenantId, t.code),
  index(`${table}_tenant_created_idx`).on(t.tenantId, t.createdAt, t.id),
  check(`${table}_status_check`, sql`${t.status} in (${statusList})`),
];
/** max+1 at check-in runs under the definition's row lock; this index is the backstop. */
export const versionConstraints = (table: string) => (t: VersionsLike) => [
  uniqueIndex(`${table}_number_idx`).on(t.definitionId, t.version),
  check(`${table}_number_check`, sql`${t.version} >= 1`),
];
export const auditConstraints = (table: string) => (t: AuditLike) => [index(`${table}_definition_idx`).on(t.definitionId, t.id)];

// Shapes only (never created): what the lifecycle's queries accept.
const definitionsShape = (name: string) => pgTable(name, definitionColumns());
const versionsShape = (name: string, ref: () => AnyPgColumn) => pgTable(name, versionColumns(ref));
const auditShape = (name: string) => pgTable(name, auditColumns());
export type DefinitionsTable = ReturnType<typeof definitionsShape>;
export type VersionsTable = ReturnType<typeof versionsShape>;
export type AuditTable = ReturnType<typeof auditShape>;

/** A capability's three tables. */
export interface DefinitionTables<D extends DefinitionsTable = DefinitionsTable> {
  definitions: D;
  versions: VersionsTable;
  audit: AuditTable;
}
