import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { findApiClientCredential } from '../../db/queries/api-clients';
import {
  API_CLIENT_ID,
  hashClientSecret,
  parseBasicAuthorization,
  verifyClientSecret,
  type BasicCredentials,
} from '../../domain/api-client-credentials';
import { AppError, badRequest } from '../../domain/errors';
import type { CodeWithStatus } from '../../domain/error-codes';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { accepts } from '../openapi-security';
import { userIdentity } from './identity';

export const BASIC_CHALLENGE = 'Basic realm="tenant-capability-platform", charset="UTF-8"';

const unauthorized = (code: CodeWithStatus<401>, detail: string) => new AppError(code, detail, { wwwAuthenticate: BASIC_CHALLENGE });

/**
 * Verified credentials per node, so a polling client does not cost an scrypt per request. Only an
 * HMAC of the secret under a key that never leaves this process is kept, tied to the stored hash
 * it was checked against; the row is still read on every request, so revocation is immediate.
 */
const memoKey = randomBytes(32);
const memo = new Map<string, { stamp: string; proof: Buffer; expires: number }>();
const MEMO_MAX = 10_000;
const proofOf = (secret: string) => createHmac('sha256', memoKey).update(secret).digest();

let dummyHash: Promise<string> | undefined;

/** True when the id names an active client of `tenantId` (any tenant when absent) and the secret matches. */
async function authenticate(deps: AppDeps, creds: BasicCredentials, tenantId: string | undefined): Promise<boolean> {
  const row = API_CLIENT_ID.test(creds.clientId) ? await findApiClientCredential(deps.db, creds.clientId) : null;
  if (!row || row.revokedAt !== null || (tenantId !== undefined && row.tenantId !== tenantId)) {
    // Same work as a real check, so the answer time does not tell which part was wrong.
    dummyHash ??= hashClientSecret(randomBytes(16).toString('hex'), deps.settings['access.api-client-scrypt-cost']);
    await verifyClientSecret(creds.secret, await dummyHash);
    return false;
  }
  const ttl = deps.settings['access.api-client-verify-cache-ttl-ms'];
  const known = memo.get(creds.clientId);
  if (ttl > 0 && known && known.stamp === row.secretHash && known.expires > Date.now()) {
    if (timingSafeEqual(known.proof, proofOf(creds.secret))) return true;
  }
  if (!(await verifyClientSecret(creds.secret, row.secretHash))) return false;
  if (ttl > 0) {
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(creds.clientId, { stamp: row.secretHash, proof: proofOf(creds.secret), expires: Date.now() + ttl });
  }
  return true;
}

/**
 * Identity for routes an API client may call: HTTP Basic credentials of a tenant API client
 * (its client id becomes the caller's user id, so its membership and grants apply as for a
 * user), or the gateway's X-User-Id. Neither: 401 with a Basic challenge. Both: 400, so an
 * identity is never picked silently. Another scheme in Authorization (a gateway's bearer
 * token) is ignored. A client of another tenant than X-Tenant-Id is refused like a wrong secret.
 */
export const basicOrGatewayIdentity = accepts(createMiddleware<AppEnv>(async (c, next) => {
  const creds = parseBasicAuthorization(c.req.header('Authorization'));
  const gatewayUser = c.req.header('X-User-Id');
  if (creds === undefined) {
    if (!gatewayUser) {
      throw unauthorized('authentication-required', 'Send HTTP Basic credentials of an API client, or the gateway identity headers');
    }
    return userIdentity(c, next);
  }
  if (gatewayUser) {
    throw badRequest('conflicting-credentials', 'Send either HTTP Basic credentials or X-User-Id, not both');
  }
  if (creds === null) throw unauthorized('invalid-credentials', 'The Basic credentials are malformed');
  const tenantId = c.req.header('X-Tenant-Id') || undefined;
  if (!(await authenticate(c.get('deps'), creds, tenantId))) {
    throw unauthorized('invalid-credentials', 'Unknown or revoked API client, or wrong secret');
  }
  c.set('userId', creds.clientId);
  await next();
}), ['UserId'], ['ApiClient']);
