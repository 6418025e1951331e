// Outbound definitions (spec: PUT .../outbound-config, POST .../send): only OUTBOUND definitions
// have roles and are sent; to these routes an INBOUND one does not exist (404), as an OUTBOUND one
// does not exist to the embed routes.
import { updateOutboundRoles, type FormDefinitionRow } from '../../db/queries/form-definitions';
import { AppError } from '../../domain/errors';
import { roleIssues, type OutboundRoles } from '../../domain/forms/outbound-roles';
import { repairFormSchema } from '../../domain/forms/schema-repair';
import type { Actor, DefinitionDeps } from '../definitions/capability';
import { getDefinition, getDefinitionByCode } from '../definitions/read-definitions';
import { formDefinitionCapability as cap } from './form-definitions';

export type DefinitionRef = { definitionId: string } | { definitionCode: string };

const notFound = () => new AppError('definition-not-found', 'Form definition was not found');

export async function outboundDefinition(deps: DefinitionDeps, actor: Actor, ref: DefinitionRef): Promise<FormDefinitionRow> {
  const row = 'definitionId' in ref ? await getDefinition(deps, cap, actor, ref.definitionId) : await getDefinitionByCode(deps, cap, actor, ref.definitionCode);
  if (row.kind !== 'OUTBOUND') throw notFound();
  return row;
}

/**
 * Replaces the roles. Keys must be value-holding fields of the draft (the form being authored;
 * versions are checked in from it), paths `roles.<key>`. Audited as `outbound_configured`; the
 * optimistic-lock counter does not move (it guards the draft, which this leaves alone).
 */
export async function setOutboundRoles(deps: DefinitionDeps, actor: Actor, id: string, roles: OutboundRoles): Promise<{ definitionId: string; roles: OutboundRoles }> {
  const definition = await outboundDefinition(deps, actor, { definitionId: id });
  const errors = roleIssues(repairFormSchema(definition.draftSchema), roles);
  if (errors.length) throw new AppError('validation-failed', `Invalid roles: ${errors[0]!.path}: ${errors[0]!.message}`, { errors });
  const row = await deps.db.transaction(async (tx) => {
    const updated = await updateOutboundRoles(tx, { tenantId: actor.tenantId, id, roles });
    if (!updated) throw notFound();
    await cap.queries.insertAudit(tx, { tenantId: actor.tenantId, definitionId: id, actor: actor.userId, action: 'outbound_configured', detail: { roles } });
    return updated;
  });
  return { definitionId: row.id, roles: row.outboundRolesJson };
}
