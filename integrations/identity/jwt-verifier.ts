// Checks the identity assertion a gateway signs (oauth2-proxy, Pomerium, Cloudflare Access,
// Google IAP) against its identity provider's remote key set. Built once per process in the
// composition root: the key set cache lives in it, so every request of the node shares one fetch.
import {
  createRemoteJWKSet,
  errors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
} from 'jose';
import type { Settings } from '../../domain/settings';

/** Asymmetric only: `none` and the HMAC family would let anyone holding a shared secret (or nothing) sign. */
export const ALLOWED_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;

/** The longest assertion looked at; real ones are a few KiB, and nothing longer is parsed. */
const MAX_TOKEN_LENGTH = 16 * 1024;

export interface JwtVerifierOptions {
  jwksUrl: string;
  issuer: string;
  audience: string[];
  clockSkewSeconds: number;
  /** Claim names read into the identity. */
  claims: { user: string; name: string; email: string };
  /** Keys are used this long before the set is fetched again (a removed key stops verifying then). */
  cacheMaxAgeMs: number;
  /** After a fetch, an unknown `kid` does not fetch again for this long. */
  cooldownMs: number;
  /** Bound on one key set fetch. */
  timeoutMs: number;
  /** The clock claims are checked against; the system clock when absent. */
  clock?: () => Date;
}

/** The claims that stand in for the gateway headers of `header` mode, unchecked beyond their type. */
export interface VerifiedClaims {
  user: unknown;
  name: unknown;
  email: unknown;
}

export type Verification =
  | { ok: true; claims: VerifiedClaims }
  /** The assertion is refused; `description` is safe to send (it never quotes the token). */
  | { ok: false; refusal: 'invalid'; description: string; cause?: unknown }
  /** The key set could not be fetched or read: nothing can be checked, so nothing is allowed. */
  | { ok: false; refusal: 'unavailable'; cause: unknown };

export interface JwtVerifier {
  verify(token: string): Promise<Verification>;
}

/** Thrown by the key lookup when the key set itself failed, so it is told apart from a bad token. */
class KeySetUnavailable extends Error {
  constructor(cause: unknown) {
    super('the identity provider key set could not be fetched', { cause });
  }
}

/** Errors of the key lookup that are about the token (its `kid`, its `alg`), not about the key set. */
const TOKEN_SIDE = [errors.JWKSNoMatchingKey, errors.JWKSMultipleMatchingKeys, errors.JOSENotSupported, errors.JOSEAlgNotAllowed];

export function createJwtVerifier(options: JwtVerifierOptions): JwtVerifier {
  const remote = createRemoteJWKSet(new URL(options.jwksUrl), {
    cacheMaxAge: options.cacheMaxAgeMs,
    cooldownDuration: options.cooldownMs,
    timeoutDuration: options.timeoutMs,
  });
  const keyFor: JWTVerifyGetKey = async (header, token) => {
    try {
      return await remote(header, token);
    } catch (err) {
      if (TOKEN_SIDE.some((type) => err instanceof type)) throw err;
      throw new KeySetUnavailable(err);
    }
  };
  const verifyOptions = (): JWTVerifyOptions => ({
    algorithms: [...ALLOWED_ALGORITHMS],
    issuer: options.issuer,
    audience: options.audience,
    clockTolerance: options.clockSkewSeconds,
    requiredClaims: ['exp'],
    ...(options.clock ? { currentDate: options.clock() } : {}),
  });
  const claimsOf = (payload: JWTPayload): VerifiedClaims => ({
    user: payload[options.claims.user],
    name: payload[options.claims.name],
    email: payload[options.claims.email],
  });

  return {
    async verify(token) {
      if (token.length > MAX_TOKEN_LENGTH) return { ok: false, refusal: 'invalid', description: 'The token is too long' };
      try {
        const { payload } = await verifyWithKeyOf(token, keyFor, verifyOptions());
        return { ok: true, claims: claimsOf(payload) };
      } catch (err) {
        if (err instanceof KeySetUnavailable) return { ok: false, refusal: 'unavailable', cause: err.cause };
        return { ok: false, refusal: 'invalid', description: describeRefusal(err), cause: err };
      }
    },
  };
}

/**
 * jwtVerify, trying each key when several of the set match the token's header (a provider may
 * publish keys without `kid` during a rotation): the first that verifies wins.
 */
async function verifyWithKeyOf(token: string, keyFor: JWTVerifyGetKey, options: JWTVerifyOptions) {
  try {
    return await jwtVerify(token, keyFor, options);
  } catch (err) {
    if (!(err instanceof errors.JWKSMultipleMatchingKeys)) throw err;
    let last: unknown = err;
    for await (const key of err) {
      try {
        return await jwtVerify(token, key, options);
      } catch (next) {
        last = next;
      }
    }
    throw last;
  }
}

/** Words for the `WWW-Authenticate` error_description (RFC 6750: no quotes or backslashes) and the problem's detail. */
function describeRefusal(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'The token has expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.reason === 'missing') return `The token lacks the ${err.claim} claim`;
    switch (err.claim) {
      case 'nbf':
        return 'The token is not yet valid';
      case 'iat':
        return 'The token was issued in the future';
      case 'iss':
        return 'The token was issued by another issuer';
      case 'aud':
        return 'The token is meant for another audience';
      default:
        return `The token's ${err.claim} claim is invalid`;
    }
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return `The token's signing algorithm is not allowed (allowed: ${ALLOWED_ALGORITHMS.join(', ')})`;
  if (err instanceof errors.JOSENotSupported) return "The token's signing algorithm is not supported";
  if (err instanceof errors.JWKSNoMatchingKey) return "No key of the identity provider matches the token's key id";
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'The token signature is invalid';
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return 'The token is malformed';
  return 'The token could not be verified';
}

/** The verifier the `auth.*` settings describe; undefined in `header` mode. */
export function jwtVerifierFor(settings: Settings, clock?: () => Date): JwtVerifier | undefined {
  if (settings['auth.mode'] !== 'jwt') return undefined;
  // loadSettings refuses jwt mode without these three, so they are here.
  return createJwtVerifier({
    jwksUrl: settings['auth.jwks-url']!,
    issuer: settings['auth.issuer']!,
    audience: settings['auth.audience'],
    clockSkewSeconds: settings['auth.clock-skew-seconds'],
    claims: { user: settings['auth.user-claim'], name: settings['auth.name-claim'], email: settings['auth.email-claim'] },
    cacheMaxAgeMs: settings['auth.jwks-cache-max-age-seconds'] * 1000,
    cooldownMs: settings['auth.jwks-cooldown-seconds'] * 1000,
    timeoutMs: settings['auth.jwks-timeout-ms'],
    clock,
  });
}
