// Which origins may frame a form's embed page, changed after create (PATCH of the definition,
// docs/forms.md "Embed origins"): sanitised as at create (dropped origins are answered as
// warnings), audited as `embed_origins_set` with what they were and are, in effect for the next
// page load. Like the outbound roles, not a draft change: the edit lock and the optimistic-lock
// counter are the draft's and stay as they are.
import { updateEmbedOrigins, type FormDefinitionRow } from '../../db/queries/form-definitions';
import type { SchemaProblem } from '../../domain/definitions/schema-rules';
import { AppError } from '../../domain/errors';
import { sanitiseEmbedOrigins } from '../../domain/forms/embed-origins';
import type { Actor, DefinitionDeps } from '../definitions/capability';
import { formDefinitionCapability as cap } from './form-definitions';

/** The problems of a list of origins: each dropped one, as a warning at `allowedEmbedOrigins.<i>`. */
export const originProblems = (origins: readonly string[]): SchemaProblem[] =>
  sanitiseEmbedOrigins(origins).dropped.map((d) => ({ path: `allowedEmbedOrigins.${d.index}`, level: 'warning' as const, message: d.message }));

export async function setEmbedOrigins(
  deps: DefinitionDeps,
  actor: Actor,
  id: string,
  given: readonly string[],
): Promise<{ definition: FormDefinitionRow; problems: SchemaProblem[] }> {
  const origins = sanitiseEmbedOrigins(given).origins;
  const definition = await deps.db.transaction(async (tx) => {
    const row = await cap.queries.find(tx, { tenantId: actor.tenantId, id, forUpdate: true });
    if (!row) throw new AppError('definition-not-found', 'Form definition was not found');
    if (JSON.stringify(row.allowedEmbedOrigins) === JSON.stringify(origins)) return row;
    const updated = await updateEmbedOrigins(tx, { tenantId: actor.tenantId, id, origins });
    if (!updated) throw new AppError('definition-not-found', 'Form definition was not found');
    await cap.queries.insertAudit(tx, {
      tenantId: actor.tenantId,
      definitionId: id,
      actor: actor.userId,
      action: 'embed_origins_set',
      detail: { from: row.allowedEmbedOrigins, to: origins },
    });
    return updated;
  });
  return { definition, problems: originProblems(given) };
}
