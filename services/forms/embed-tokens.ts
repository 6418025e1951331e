// Embed tokens of a form definition (spec rule 3) and the one resolver every public embed route
// uses, so each refusal looks the same from outside.
import type { VersionRow } from '../../db/queries/definitions';
import { bumpEmbedKeyVersion, type FormDefinitionRow } from '../../db/queries/form-definitions';
import { AppError } from '../../domain/errors';
import { signEmbedToken, verifyEmbedToken } from '../../domain/forms/embed-token';
import type { Settings } from '../../domain/settings';
import type { Actor, DefinitionDeps } from '../definitions/capability';
import { getDefinition } from '../definitions/read-definitions';
import { formDefinitionCapability as cap } from './form-definitions';

export interface EmbedToken {
  token: string;
  embedKeyVersion: number;
  embedUrl: string;
}

function embedKey(settings: Settings): string {
  const key = settings['forms.embed-key'];
  if (!key) throw new AppError('embed-key-missing', 'Embed tokens cannot be issued: forms.embed-key is not configured');
  return key;
}

/** Outbound definitions are never embeddable (rule 4): to the embed routes they do not exist. */
async function inboundDefinition(deps: DefinitionDeps, actor: Actor, id: string): Promise<FormDefinitionRow> {
  const row = await getDefinition(deps, cap, actor, id);
  if (row.kind !== 'INBOUND') throw new AppError('definition-not-found', 'Form definition was not found');
  return row;
}

const tokenOf = (settings: Settings, row: FormDefinitionRow): EmbedToken => {
  const token = signEmbedToken(embedKey(settings), { tenantId: row.tenantId, definitionId: row.id, embedKeyVersion: row.embedKeyVersion });
  return { token, embedKeyVersion: row.embedKeyVersion, embedUrl: `${settings['public.base-url'].replace(/\/+$/, '')}/embed/${token}` };
};

/** The definition is looked up first: a foreign or missing one is 404 whether or not the key is set. */
export async function getEmbedToken(deps: DefinitionDeps, actor: Actor, id: string): Promise<EmbedToken> {
  return tokenOf(deps.settings, await inboundDefinition(deps, actor, id));
}

/**
 * Bumps embedKeyVersion: every token issued before is refused from now on. The optimistic-lock
 * counter does not move: it guards the authored draft, which rotation leaves alone. The audit
 * trail records the rotation (action `embed_token_rotated`) in the same transaction.
 */
export async function rotateEmbedToken(deps: DefinitionDeps, actor: Actor, id: string): Promise<EmbedToken> {
  await inboundDefinition(deps, actor, id);
  embedKey(deps.settings);
  const row = await deps.db.transaction(async (tx) => {
    const rotated = await bumpEmbedKeyVersion(tx, { tenantId: actor.tenantId, id });
    if (!rotated) throw new AppError('definition-not-found', 'Form definition was not found');
    await cap.queries.insertAudit(tx, {
      tenantId: actor.tenantId,
      definitionId: id,
      actor: actor.userId,
      action: 'embed_token_rotated',
      detail: { embedKeyVersion: rotated.embedKeyVersion },
    });
    return rotated;
  });
  return tokenOf(deps.settings, row);
}

export interface EmbeddedForm {
  definition: FormDefinitionRow;
  version: VersionRow;
}

const notEmbeddable = () => new AppError('embed-form-not-found', 'The form was not found');

/**
 * The published form behind a public token, or one and the same 404 for every reason it has
 * none (unknown, badly signed, rotated, unpublished, retired, deleted, outbound, key unset):
 * the public API never reveals which.
 */
export async function resolveEmbeddedForm(deps: Pick<DefinitionDeps, 'db' | 'settings'>, token: string): Promise<EmbeddedForm> {
  const key = deps.settings['forms.embed-key'];
  const payload = key ? verifyEmbedToken(key, token) : null;
  if (!payload) throw notEmbeddable();
  const definition = await cap.queries.find(deps.db, { tenantId: payload.tenantId, id: payload.definitionId });
  if (
    !definition ||
    definition.kind !== 'INBOUND' ||
    definition.status !== 'PUBLISHED' ||
    definition.publishedVersion == null ||
    definition.embedKeyVersion !== payload.embedKeyVersion
  ) {
    throw notEmbeddable();
  }
  const version = await cap.queries.findVersion(deps.db, { tenantId: payload.tenantId, definitionId: definition.id, version: definition.publishedVersion });
  if (!version) throw notEmbeddable();
  return { definition, version };
}
