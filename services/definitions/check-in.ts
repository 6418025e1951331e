// Check-in: the draft becomes an immutable version numbered max+1 (under the definition's row
// lock, so parallel check-ins number distinctly; the unique index is the backstop).
import type { VersionRow } from '../../db/queries/definitions';
import type { DefinitionsTable } from '../../db/schema/definitions';
import { decideCheckIn } from '../../domain/definitions/lifecycle';
import type { Actor, DefinitionCapability, DefinitionDeps } from './capability';
import { runStep } from './run-step';

export async function checkInDraft<D extends DefinitionsTable>(
  deps: DefinitionDeps,
  cap: DefinitionCapability<D>,
  actor: Actor,
  id: string,
): Promise<VersionRow> {
  let created: VersionRow | undefined;
  await runStep(deps, cap, actor, id, async (row, tx, editor) => {
    const where = { tenantId: actor.tenantId, definitionId: id };
    const next = (await cap.queries.maxVersion(tx, where)) + 1;
    const step = decideCheckIn(row, editor, cap.rules.check(row.draftSchema), next);
    created = await cap.queries.insertVersion(tx, { ...where, version: next, schema: row.draftSchema, checkedInBy: actor.userId, checkedInAt: editor.now });
    return step;
  });
  return created!;
}
