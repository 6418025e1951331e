// The working draft: save (optimistic lock on the counter the caller read), restore a version
// into it, discard it back to the last checked-in version.
import type { DefinitionsTable } from '../../db/schema/definitions';
import { decideDiscard, decideRestore, decideSave } from '../../domain/definitions/lifecycle';
import type { SchemaProblem } from '../../domain/definitions/schema-rules';
import type { Actor, DefinitionCapability, DefinitionDeps, RowOf } from './capability';
import { runStep } from './run-step';

/** Stores the draft whatever its problems (they are answered; errors only block check-in). */
export async function saveDraft<D extends DefinitionsTable>(
  deps: DefinitionDeps,
  cap: DefinitionCapability<D>,
  actor: Actor,
  id: string,
  input: { draftSchema: unknown; version: number },
): Promise<{ definition: RowOf<D>; problems: SchemaProblem[] }> {
  let stored: unknown = input.draftSchema;
  const definition = await runStep(deps, cap, actor, id, (row, _tx, editor) => {
    stored = cap.rules.carryOver ? cap.rules.carryOver(row.draftSchema, input.draftSchema) : input.draftSchema;
    return decideSave(row, editor, input.version, stored);
  });
  return { definition, problems: cap.rules.check(stored) };
}

export const restoreVersion = <D extends DefinitionsTable>(deps: DefinitionDeps, cap: DefinitionCapability<D>, actor: Actor, id: string, version: number) =>
  runStep(deps, cap, actor, id, async (row, tx, editor) =>
    decideRestore(row, editor, await cap.queries.findVersion(tx, { tenantId: actor.tenantId, definitionId: id, version }), version),
  );

export const discardDraft = <D extends DefinitionsTable>(deps: DefinitionDeps, cap: DefinitionCapability<D>, actor: Actor, id: string) =>
  runStep(deps, cap, actor, id, async (row, tx, editor) =>
    decideDiscard(row, editor, await cap.queries.latestVersion(tx, { tenantId: actor.tenantId, definitionId: id })),
  );
