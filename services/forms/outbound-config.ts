// Outbound definitions (spec: PUT .../outbound-config, POST .../send): only OUTBOUND definitions
// have roles and are sent; to these routes an INBOUND one does not exist (404), as an OUTBOUND one
// does not exist to the embed routes.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { formDefinitions } from '../../db/schema/forms';
import { AppError } from '../../domain/errors';
import { repairFormSchema } from '../../domain/forms/form-schema';
import { roleIssues, type OutboundRoles } from '../../domain/forms/outbound-roles';
import type { Actor, DefinitionDeps } from '../definitions/capability';
import { getDefinition, getDefinitionByCode } from '../definitions/read-definitions';
import { formDefinitionCapability as cap } from './form-definitions';

export type FormDefinitionRow = typeof formDefinitions.$inferSelect;
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
    const [updated] = await tx
      .update(formDefinitions)
      .set({ outboundRolesJson: roles, updatedAt: sql`now()` })
      .where(and(eq(formDefinitions.tenantId, actor.tenantId), eq(formDefinitions.id, id), isNull(formDefinitions.deletedAt)))
      .returning();
    if (!updated) throw notFound();
    await cap.queries.insertAudit(tx, { tenantId: actor.tenantId, definitionId: id, actor: actor.userId, action: 'outbound_configured', detail: { roles } });
    return updated;
  });
  return { definitionId: row.id, roles: row.outboundRolesJson };
}
