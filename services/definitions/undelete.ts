// Undoing a soft delete (POST /{id}/restore): the definition is live again with its code, draft,
// versions and lock cleared by the delete. One transaction under the row lock, audited `undeleted`.
import type { DefinitionsTable } from '../../db/schema/definitions';
import { decideUndelete } from '../../domain/definitions/lifecycle';
import { conflict } from '../../domain/errors';
import type { Actor, DefinitionCapability, DefinitionDeps, RowOf } from './capability';
import { definitionNotFound } from './run-step';

export async function undeleteDefinition<D extends DefinitionsTable>(
  deps: DefinitionDeps,
  cap: DefinitionCapability<D>,
  actor: Actor,
  id: string,
): Promise<RowOf<D>> {
  const { tenantId } = actor;
  return deps.db.transaction(async (tx) => {
    const row = await cap.queries.findAny(tx, { tenantId, id, forUpdate: true });
    if (!row) throw definitionNotFound(cap);
    const step = decideUndelete(row);
    if (!step) return row;
    const updated = await cap.queries.update(tx, { tenantId, id, expectedVersion: row.version, changes: step.changes, deleted: true });
    if (!updated) throw conflict('version-conflict', `The ${cap.noun.toLowerCase()} changed concurrently; reload it and retry`);
    await cap.queries.insertAudit(tx, { tenantId, definitionId: id, actor: actor.userId, ...step.audit });
    return updated;
  });
}
