/**
 * Assertions as a gateway signs them, minted with jose from the stand-in's keys (or from keys and
 * secrets it never published, for the refusals). Times are epoch seconds relative to now.
 */
import { createHmac } from 'node:crypto';
import { generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import type { HeldKey, JwksStandIn } from './server';

export const AUDIENCE = 'tenant-capability-platform';

export interface MintOptions {
  /** Claims beyond the defaults (sub, iss, aud, iat, exp in five minutes); `undefined` removes one. */
  claims?: Record<string, unknown>;
  /** The `kid` in the header (default: the key's own); `null` leaves it out. */
  kid?: string | null;
}

const now = () => Math.floor(Date.now() / 1000);

function claimsFor(provider: JwksStandIn, user: string, extra: Record<string, unknown> = {}): JWTPayload {
  const claims: Record<string, unknown> = { sub: user, iss: provider.issuer, aud: AUDIENCE, iat: now(), exp: now() + 300, ...extra };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  return claims as JWTPayload;
}

/** A token signed by `key` (published or not) for `user`. */
export async function mintToken(provider: JwksStandIn, key: Pick<HeldKey, 'kid' | 'alg' | 'privateKey'>, user: string, options: MintOptions = {}) {
  const kid = options.kid === undefined ? key.kid : options.kid;
  return new SignJWT(claimsFor(provider, user, options.claims))
    .setProtectedHeader({ alg: key.alg, typ: 'JWT', ...(kid === null ? {} : { kid }) })
    .sign(key.privateKey);
}

/** A key the provider never published, under a `kid` of the caller's choosing. */
export async function foreignKey(kid: string): Promise<Pick<HeldKey, 'kid' | 'alg' | 'privateKey'>> {
  const pair = await generateKeyPair('RS256', { extractable: true });
  return { kid, alg: 'RS256', privateKey: pair.privateKey };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** `alg: none`: an unsigned token (jose refuses to make one, so it is assembled here). */
export function unsignedToken(provider: JwksStandIn, user: string, kid: string): string {
  return `${b64({ alg: 'none', typ: 'JWT', kid })}.${b64(claimsFor(provider, user))}.`;
}

/** HS256 keyed with the text of a published public key: the classic algorithm-confusion forgery. */
export function hmacToken(provider: JwksStandIn, user: string, kid: string, secret: string): string {
  const signingInput = `${b64({ alg: 'HS256', typ: 'JWT', kid })}.${b64(claimsFor(provider, user))}`;
  return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
}
