import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/client';
import { findApiClientCredential } from '../../db/queries/api-clients';
import {
  API_CLIENT_ID,
  hashClientSecret,
  verifyClientSecret,
  type BasicCredentials,
} from '../../domain/api-client-credentials';
import type { Settings } from '../../domain/settings';

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
export async function authenticateApiClient(
  deps: { db: Db; settings: Pick<Settings, 'access.api-client-scrypt-cost' | 'access.api-client-verify-cache-ttl-ms'> },
  input: BasicCredentials & { tenantId: string | undefined },
): Promise<boolean> {
  const { clientId, secret, tenantId } = input;
  const row = API_CLIENT_ID.test(clientId) ? await findApiClientCredential(deps.db, clientId) : null;
  if (!row || row.revokedAt !== null || (tenantId !== undefined && row.tenantId !== tenantId)) {
    // Same work as a real check, so the answer time does not tell which part was wrong.
    dummyHash ??= hashClientSecret(randomBytes(16).toString('hex'), deps.settings['access.api-client-scrypt-cost']);
    await verifyClientSecret(secret, await dummyHash);
    return false;
  }
  const ttl = deps.settings['access.api-client-verify-cache-ttl-ms'];
  const known = memo.get(clientId);
  if (ttl > 0 && known && known.stamp === row.secretHash && known.expires > Date.now()) {
    if (timingSafeEqual(known.proof, proofOf(secret))) return true;
  }
  if (!(await verifyClientSecret(secret, row.secretHash))) return false;
  if (ttl > 0) {
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(clientId, { stamp: row.secretHash, proof: proofOf(secret), expires: Date.now() + ttl });
  }
  return true;
}
