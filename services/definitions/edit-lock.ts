// Checkout and release of the advisory edit lock.
import type { DefinitionsTable } from '../../db/schema/definitions';
import { decideCheckout, decideRelease } from '../../domain/definitions/lifecycle';
import type { Actor, DefinitionCapability, DefinitionDeps } from './capability';
import { runStep } from './run-step';

export const checkoutDefinition = <D extends DefinitionsTable>(deps: DefinitionDeps, cap: DefinitionCapability<D>, actor: Actor, id: string) =>
  runStep(deps, cap, actor, id, (row, _tx, editor) => decideCheckout(row, editor));

export const releaseDefinition = <D extends DefinitionsTable>(deps: DefinitionDeps, cap: DefinitionCapability<D>, actor: Actor, id: string) =>
  runStep(deps, cap, actor, id, (row, _tx, editor) => decideRelease(row, editor));
