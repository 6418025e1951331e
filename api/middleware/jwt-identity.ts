// `auth.mode=jwt`: the user comes only from the assertion the gateway signs, checked by the
// node's verifier (integrations/identity/jwt-verifier.ts). Refusals follow RFC 6750: 401 with a
// `Bearer` challenge naming the error (never the token), 503 when the key set cannot be had.
import type { Context } from 'hono';
import { AppError } from '../../domain/errors';
import { jwtVerifierFor, type JwtVerifier } from '../../integrations/identity/jwt-verifier';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { USER_ID } from '../openapi';
import { USER_EMAIL, USER_NAME, type RequestUser } from './identity-fields';

const REALM = 'tenant-capability-platform';
/** A provider whose key set is down is usually back within seconds (a restart, a deploy). */
const PROVIDER_RETRY_AFTER_SECONDS = 5;

/** RFC 6750 §3: no error code when no credentials came; `invalid_token` with a description otherwise. */
export function bearerChallenge(description?: string): string {
  if (description === undefined) return `Bearer realm="${REALM}"`;
  return `Bearer realm="${REALM}", error="invalid_token", error_description="${description.replace(/["\\]/g, '')}"`;
}

const invalidToken = (description: string) => new AppError('invalid-token', description, { wwwAuthenticate: bearerChallenge(description) });

/**
 * The assertion in `auth.jwt-header`: `Authorization` carries it as `Bearer <jwt>` (another
 * scheme there is no assertion); any other header carries the bare JWT. Undefined when absent.
 */
export function assertionOf(c: Context<AppEnv>): string | undefined {
  const header = c.get('deps').settings['auth.jwt-header'];
  const value = c.req.header(header)?.trim();
  if (value === undefined || value === '') return undefined;
  if (header.toLowerCase() !== 'authorization') return value;
  const match = /^bearer(?:\s+(.*))?$/i.exec(value);
  if (!match) return undefined;
  return match[1]?.trim() ?? '';
}

/** Verifiers built from settings for deps that came without one (tests, tools): one per deps. */
const builtVerifiers = new WeakMap<AppDeps, JwtVerifier>();

function verifierOf(deps: AppDeps): JwtVerifier {
  if (deps.jwtVerifier) return deps.jwtVerifier;
  let verifier = builtVerifiers.get(deps);
  if (!verifier) {
    verifier = jwtVerifierFor(deps.settings, deps.clock);
    if (!verifier) throw new Error('auth.mode is not jwt');
    builtVerifiers.set(deps, verifier);
  }
  return verifier;
}

/** The request's user from its verified assertion; the AppError of the refusal otherwise. */
export async function readAssertedUser(c: Context<AppEnv>): Promise<RequestUser> {
  // A gateway that passes X-User-Id through in front of a jwt-mode node is misconfigured: say so at once.
  if (c.req.header('X-User-Id') !== undefined) {
    throw new AppError('unexpected-identity-header', 'X-User-Id is not accepted here: the identity comes only from the signed assertion (auth.mode=jwt)', {
      header: 'X-User-Id',
    });
  }
  const token = assertionOf(c);
  if (token === undefined) {
    const header = c.get('deps').settings['auth.jwt-header'];
    throw new AppError('token-required', `A signed identity assertion is required in ${header}`, { wwwAuthenticate: bearerChallenge() });
  }
  if (token === '') throw invalidToken('The token is malformed');
  const result = await verifierOf(c.get('deps')).verify(token);
  if (!result.ok) {
    if (result.refusal === 'unavailable') {
      c.get('log').warn({ err: result.cause }, 'identity provider key set unavailable');
      throw new AppError('identity-provider-unavailable', 'The identity provider key set cannot be fetched; try again shortly', {
        retryAfterSeconds: PROVIDER_RETRY_AFTER_SECONDS,
      });
    }
    c.get('log').info({ refusal: result.description }, 'identity assertion refused');
    throw invalidToken(result.description);
  }
  const { user, name, email } = result.claims;
  if (typeof user !== 'string' || !USER_ID.test(user)) {
    throw invalidToken(`The token lacks a usable ${c.get('deps').settings['auth.user-claim']} claim`);
  }
  // The directory fields are a courtesy of the provider: an unusable one is left out, not refused.
  return {
    userId: user,
    name: typeof name === 'string' && USER_NAME.test(name) ? name : undefined,
    email: typeof email === 'string' && USER_EMAIL.test(email) ? email : undefined,
  };
}
