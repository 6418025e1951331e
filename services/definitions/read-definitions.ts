// Reads: a deleted definition is not found, except by its audit trail, which outlives it.
import type { AuditRow, VersionRow } from '../../db/queries/definitions';
import type { DefinitionsTable } from '../../db/schema/definitions';
import { notFound } from '../../domain/errors';
import type { KeysetPosition } from '../../domain/keyset-cursor';
import type { Actor, DefinitionCapability, DefinitionDeps, RowOf } from './capability';
import { definitionNotFound } from './run-step';

type Cap<D extends DefinitionsTable> = DefinitionCapability<D>;

export async function getDefinition<D extends DefinitionsTable>(deps: DefinitionDeps, cap: Cap<D>, actor: Actor, id: string): Promise<RowOf<D>> {
  const row = await cap.queries.find(deps.db, { tenantId: actor.tenantId, id });
  if (!row) throw definitionNotFound(cap);
  return row;
}

export async function getDefinitionByCode<D extends DefinitionsTable>(deps: DefinitionDeps, cap: Cap<D>, actor: Actor, code: string): Promise<RowOf<D>> {
  const row = await cap.queries.findByCode(deps.db, { tenantId: actor.tenantId, code });
  if (!row) throw definitionNotFound(cap);
  return row;
}

export const listDefinitions = <D extends DefinitionsTable>(
  deps: DefinitionDeps,
  cap: Cap<D>,
  actor: Actor,
  p: { status?: RowOf<D>['status']; before: KeysetPosition | null; limit: number },
) => cap.queries.list(deps.db, { tenantId: actor.tenantId, ...p });

export async function listVersions<D extends DefinitionsTable>(deps: DefinitionDeps, cap: Cap<D>, actor: Actor, id: string): Promise<VersionRow[]> {
  await getDefinition(deps, cap, actor, id);
  return cap.queries.listVersions(deps.db, { tenantId: actor.tenantId, definitionId: id });
}

export async function getVersion<D extends DefinitionsTable>(deps: DefinitionDeps, cap: Cap<D>, actor: Actor, id: string, version: number): Promise<VersionRow> {
  await getDefinition(deps, cap, actor, id);
  const row = await cap.queries.findVersion(deps.db, { tenantId: actor.tenantId, definitionId: id, version });
  if (!row) throw notFound(`Version ${version}`, 'version-not-found');
  return row;
}

/** Answers for a deleted or purged definition too: the trail records that and everything before. */
export async function listAuditEvents<D extends DefinitionsTable>(
  deps: DefinitionDeps,
  cap: Cap<D>,
  actor: Actor,
  id: string,
  p: { before?: number; limit: number },
): Promise<AuditRow[]> {
  if (!(await cap.queries.hasTrail(deps.db, { tenantId: actor.tenantId, id }))) throw definitionNotFound(cap);
  return cap.queries.listAudit(deps.db, { tenantId: actor.tenantId, definitionId: id, ...p });
}
