// The hard purge: the definition row and its versions are deleted in one transaction under the
// row lock, after the `purged` audit event (the trail stays: its rows are immutable and carry no
// foreign key). A soft-deleted definition may be purged too; that is the usual way to it.
import { isForeignKeyViolation } from '../../db/errors';
import type { DefinitionsTable } from '../../db/schema/definitions';
import { AppError } from '../../domain/errors';
import { decidePurge } from '../../domain/definitions/lifecycle';
import type { Actor, DefinitionCapability, DefinitionDeps } from './capability';
import { definitionNotFound, editorOf } from './run-step';

export async function purgeDefinition<D extends DefinitionsTable>(deps: DefinitionDeps, cap: DefinitionCapability<D>, actor: Actor, id: string): Promise<void> {
  const editor = editorOf(deps, cap, actor);
  const { tenantId } = actor;
  try {
    await deps.db.transaction(async (tx) => {
      const row = await cap.queries.findAny(tx, { tenantId, id, forUpdate: true });
      if (!row) throw definitionNotFound(cap);
      const audit = decidePurge(row, editor);
      const versions = (await cap.queries.listVersions(tx, { tenantId, definitionId: id })).length;
      await cap.queries.insertAudit(tx, { tenantId, definitionId: id, actor: actor.userId, action: audit.action, detail: { ...audit.detail, code: row.code, versions } });
      await cap.queries.remove(tx, { tenantId, id });
    });
  } catch (err) {
    // Instances (form instances, later signature campaigns) keep their pinned version by foreign
    // key: a definition that has them is never purged; the whole step rolls back, audit included.
    if (isForeignKeyViolation(err)) throw new AppError('definition-in-use', 'Instances still pin versions of this definition; retire it instead of purging it.');
    throw err;
  }
}
