// Renaming a definition (PATCH): a step of its own, audited, not stopped by the edit lock.
import type { DefinitionsTable } from '../../db/schema/definitions';
import { decideRename } from '../../domain/definitions/lifecycle';
import type { Actor, DefinitionCapability, DefinitionDeps } from './capability';
import { runStep } from './run-step';

export const renameDefinition = <D extends DefinitionsTable>(deps: DefinitionDeps, cap: DefinitionCapability<D>, actor: Actor, id: string, name: string) =>
  runStep(deps, cap, actor, id, (row) => decideRename(row, name));
