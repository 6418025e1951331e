import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Credentials of tenant API clients (HTTP Basic). The client id is public (the Basic user name);
 * the secret is 32 random bytes shown once and stored only as `scrypt$<logN>$<r>$<p>$<salt>$<hash>`
 * with a per-secret salt, so a leaked table does not give the secrets away cheaply. The cost
 * parameters travel with each hash, so raising the cost setting keeps older hashes verifiable.
 */

const KEY_LENGTH = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const HASH = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{16,})$/;

/** `ac_` + 20 hex characters: printable, no colon (Basic splits user and password at the first one). */
export const API_CLIENT_ID = /^ac_[0-9a-f]{20}$/;

export const newClientId = () => `ac_${randomBytes(10).toString('hex')}`;
export const newClientSecret = () => randomBytes(32).toString('base64url');

function derive(secret: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashClientSecret(secret: string, logN: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, logN, BLOCK_SIZE, PARALLELISM);
  return `scrypt$${logN}$${BLOCK_SIZE}$${PARALLELISM}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Constant-time comparison of the derived key; a malformed stored hash never verifies. */
export async function verifyClientSecret(secret: string, stored: string): Promise<boolean> {
  const m = HASH.exec(stored);
  if (!m) return false;
  const [logN, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (logN < 1 || logN > 22 || r < 1 || p < 1) return false;
  const expected = Buffer.from(m[5] as string, 'base64url');
  const actual = await derive(secret, Buffer.from(m[4] as string, 'base64url'), logN, r, p);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export interface BasicCredentials {
  clientId: string;
  secret: string;
}

/**
 * `Authorization: Basic base64(id:secret)`. undefined when the header is absent or uses another
 * scheme; null when it says Basic but cannot be decoded into a user and a password.
 */
export function parseBasicAuthorization(header: string | undefined): BasicCredentials | null | undefined {
  if (!header) return undefined;
  const m = /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return /^Basic(\s|$)/i.test(header) ? null : undefined;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
