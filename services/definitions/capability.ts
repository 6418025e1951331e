// What a capability plugs into the one definition lifecycle: its tables (through their
// queries), code prefix, schema rules and the few columns of its own a clone copies.
import type { Db } from '../../db/client';
import type { DefinitionQueries } from '../../db/queries/definitions';
import type { DefinitionsTable } from '../../db/schema/definitions';
import type { RandomInt } from '../../domain/definitions/definition-code';
import type { SchemaRules } from '../../domain/definitions/schema-rules';
import type { Settings } from '../../domain/settings';

export interface DefinitionCapability<D extends DefinitionsTable = DefinitionsTable> {
  /** Capability code (catalog, guard): FORMS, SIGNATURES. */
  code: string;
  /** Prefix of generated definition codes: `FM-`. */
  codePrefix: string;
  /** How problems name a definition: "Form definition". */
  noun: string;
  queries: DefinitionQueries<D>;
  rules: SchemaRules;
  lockTtlMinutes(settings: Settings): number;
  /** The capability's own columns a clone takes from its source; `options` are the clone body's own fields (its plug-in's cloneFields). */
  cloneColumns(source: D['$inferSelect'], options?: Record<string, unknown>): Partial<D['$inferInsert']>;
}

export interface DefinitionDeps {
  db: Db;
  settings: Settings;
  clock?: () => Date;
  /** Code characters; crypto's by default, injected by tests to force collisions. */
  random?: RandomInt;
}

export interface Actor {
  tenantId: string;
  userId: string;
}

export type RowOf<D extends DefinitionsTable> = D['$inferSelect'];
