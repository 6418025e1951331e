// One lifecycle step, one transaction: the definition's row lock (steps of one definition run
// one after another, so parallel check-ins number distinctly and parallel checkouts see each
// other), the domain's decision, the optimistic update `where id and version`, the audit row.
import type { Tx } from '../../db/client';
import type { DefinitionsTable } from '../../db/schema/definitions';
import type { Editor } from '../../domain/definitions/edit-lock';
import type { Step } from '../../domain/definitions/lifecycle';
import { conflict, notFound } from '../../domain/errors';
import type { Actor, DefinitionCapability, DefinitionDeps, RowOf } from './capability';

export const nowOf = (deps: DefinitionDeps) => deps.clock?.() ?? new Date();

export function editorOf<D extends DefinitionsTable>(deps: DefinitionDeps, cap: DefinitionCapability<D>, actor: Actor): Editor {
  return { userId: actor.userId, now: nowOf(deps), lockTtlMinutes: cap.lockTtlMinutes(deps.settings) };
}

export const definitionNotFound = (cap: { noun: string }) => notFound(cap.noun, 'definition-not-found');

/** Runs `decide` on the locked row; null from it means nothing to do (no write, no audit). */
export async function runStep<D extends DefinitionsTable>(
  deps: DefinitionDeps,
  cap: DefinitionCapability<D>,
  actor: Actor,
  id: string,
  decide: (row: RowOf<D>, tx: Tx, editor: Editor) => Promise<Step | null> | Step | null,
): Promise<RowOf<D>> {
  const editor = editorOf(deps, cap, actor);
  const { tenantId } = actor;
  return deps.db.transaction(async (tx) => {
    const row = await cap.queries.find(tx, { tenantId, id, forUpdate: true });
    if (!row) throw definitionNotFound(cap);
    const step = await decide(row, tx, editor);
    if (!step) return row;
    const updated = await cap.queries.update(tx, { tenantId, id, expectedVersion: row.version, changes: step.changes });
    if (!updated) throw conflict('version-conflict', `The ${cap.noun.toLowerCase()} changed concurrently; reload it and retry`);
    await cap.queries.insertAudit(tx, { tenantId, definitionId: id, actor: actor.userId, ...step.audit });
    return updated;
  });
}
