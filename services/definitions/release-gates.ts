// Sign-off of the latest version and publishing a signed-off one. Both check the version's
// schema again: the rules may have tightened since it was checked in.
import type { DefinitionsTable } from '../../db/schema/definitions';
import { decidePublish, decideSignOff } from '../../domain/definitions/lifecycle';
import type { Actor, DefinitionCapability, DefinitionDeps } from './capability';
import { runStep } from './run-step';

export const signOffLatest = <D extends DefinitionsTable>(deps: DefinitionDeps, cap: DefinitionCapability<D>, actor: Actor, id: string) =>
  runStep(deps, cap, actor, id, async (_row, tx, editor) => {
    const latest = await cap.queries.latestVersion(tx, { tenantId: actor.tenantId, definitionId: id });
    const step = decideSignOff(latest, editor, latest ? cap.rules.check(latest.schema) : []);
    if (step && latest) await cap.queries.signOffVersion(tx, { id: latest.id, by: actor.userId, at: editor.now });
    return step;
  });

export const publishVersion = <D extends DefinitionsTable>(deps: DefinitionDeps, cap: DefinitionCapability<D>, actor: Actor, id: string, version: number) =>
  runStep(deps, cap, actor, id, async (row, tx) => {
    const found = await cap.queries.findVersion(tx, { tenantId: actor.tenantId, definitionId: id, version });
    return decidePublish(row, found, version, found ? cap.rules.check(found.schema) : []);
  });
