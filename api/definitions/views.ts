// Rows to views. Stored schemas are read through the capability's repair (a malformed stored
// draft reads as a usable schema); instants are ISO-8601 UTC.
import type { z } from '@hono/zod-openapi';
import type { AuditRow, VersionRow } from '../../db/queries/definitions';
import type { DefinitionsTable } from '../../db/schema/definitions';
import type { SchemaProblem } from '../../domain/definitions/schema-rules';
import type { RowOf } from '../../services/definitions/capability';
import type { DefinitionApi } from './plugin';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function definitionViews<D extends DefinitionsTable, C extends z.ZodRawShape, V extends z.ZodRawShape>(api: DefinitionApi<D, C, V>) {
  const { rules } = api.capability;
  const summary = (row: RowOf<D>) => ({
    id: row.id,
    code: row.code,
    name: row.name,
    status: row.status,
    version: row.version,
    publishedVersion: row.publishedVersion,
    lockedBy: row.lockedBy,
    lockedAt: iso(row.lockedAt),
    lastTestedAt: iso(row.lastTestedAt),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...api.viewOf(row),
  });
  const definition = (row: RowOf<D>) => ({ ...summary(row), draftSchema: rules.repair(row.draftSchema), problems: rules.check(row.draftSchema) });
  const versionSummary = (v: VersionRow) => ({
    id: v.id,
    definitionId: v.definitionId,
    version: v.version,
    checkedInBy: v.checkedInBy,
    checkedInAt: v.checkedInAt.toISOString(),
    signedOffAt: iso(v.signedOffAt),
    signedOffBy: v.signedOffBy,
  });
  return {
    summary,
    definition,
    saved: (row: RowOf<D>, problems: SchemaProblem[]) => ({ ...definition(row), problems }),
    versionSummary,
    version: (v: VersionRow) => ({ ...versionSummary(v), schema: rules.repair(v.schema) }),
    auditEvent: (a: AuditRow) => ({ id: a.id, definitionId: a.definitionId, action: a.action, detail: a.detail, actor: a.actor, at: a.at.toISOString() }),
  };
}
