// What every definition route takes from the request: the services' deps and the acting user.
import type { Context } from 'hono';
import type { DefinitionDeps, Actor } from '../../services/definitions/capability';
import type { AppEnv } from '../env';

export function actorOf(c: Context<AppEnv>): { deps: DefinitionDeps; actor: Actor } {
  const { db, settings, clock } = c.get('deps');
  const { tenantId, userId } = c.get('caller');
  return { deps: { db, settings, clock }, actor: { tenantId, userId } };
}

/**
 * A JSON answer. The factory is generic over the capability's own view fields, which the typed
 * responses of zod-openapi cannot follow through; the tests hold the views to their schemas.
 */
export const answer = (c: Context<AppEnv>, body: unknown, status: 200 | 201) => c.json(body as never, status) as never;
