// Retire, unretire and soft delete.
import type { DefinitionsTable } from '../../db/schema/definitions';
import { decideDelete, decideRetire, decideUnretire } from '../../domain/definitions/lifecycle';
import type { Actor, DefinitionCapability, DefinitionDeps } from './capability';
import { runStep } from './run-step';

export const retireDefinition = <D extends DefinitionsTable>(deps: DefinitionDeps, cap: DefinitionCapability<D>, actor: Actor, id: string) =>
  runStep(deps, cap, actor, id, (row) => decideRetire(row));

export const unretireDefinition = <D extends DefinitionsTable>(deps: DefinitionDeps, cap: DefinitionCapability<D>, actor: Actor, id: string) =>
  runStep(deps, cap, actor, id, (row) => decideUnretire(row));

export const deleteDefinition = <D extends DefinitionsTable>(deps: DefinitionDeps, cap: DefinitionCapability<D>, actor: Actor, id: string) =>
  runStep(deps, cap, actor, id, (row, _tx, editor) => decideDelete(row, editor));
