import { describe, expect, it } from 'vitest';
import {
  API_CLIENT_ID,
  hashClientSecret,
  newClientId,
  newClientSecret,
  parseBasicAuthorization,
  verifyClientSecret,
} from '../../../domain/api-client-credentials';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('API client credentials', () => {
  it('ids match the id pattern and contain no colon; secrets carry 256 bits and differ', () => {
    const id = newClientId();
    expect(id).toMatch(API_CLIENT_ID);
    expect(id).not.toContain(':');
    const [a, b] = [newClientSecret(), newClientSecret()];
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('a secret verifies against its scrypt hash; another secret does not; the hash holds no trace of the secret', async () => {
    const secret = newClientSecret();
    const hash = await hashClientSecret(secret, 10);
    expect(hash).toMatch(/^scrypt\$10\$8\$1\$/);
    expect(hash).not.toContain(secret);
    expect(await verifyClientSecret(secret, hash)).toBe(true);
    expect(await verifyClientSecret(`${secret}x`, hash)).toBe(false);
    expect(await verifyClientSecret('', hash)).toBe(false);
  });

  it('each hash has its own salt: the same secret hashes differently twice, and both verify', async () => {
    const secret = 'same secret';
    const [h1, h2] = await Promise.all([hashClientSecret(secret, 10), hashClientSecret(secret, 10)]);
    expect(h1).not.toBe(h2);
    expect(await verifyClientSecret(secret, h1)).toBe(true);
    expect(await verifyClientSecret(secret, h2)).toBe(true);
  });

  it('the cost travels with the hash: a hash made at another cost still verifies', async () => {
    const hash = await hashClientSecret('s', 11);
    expect(hash.split('$')[1]).toBe('11');
    expect(await verifyClientSecret('s', hash)).toBe(true);
  });

  it('a malformed or tampered stored hash never verifies', async () => {
    const hash = await hashClientSecret('s', 10);
    const parts = hash.split('$');
    const tampered = [...parts.slice(0, 5), Buffer.alloc(32, 1).toString('base64url')].join('$');
    for (const stored of ['', 'plain', 's', tampered, hash.replace('scrypt$10', 'scrypt$99'), `bcrypt${hash.slice(6)}`]) {
      expect(await verifyClientSecret('s', stored), stored).toBe(false);
    }
  });

  it('parses Basic: undefined without it or for another scheme, null when undecodable, the password may hold colons', () => {
    expect(parseBasicAuthorization(undefined)).toBeUndefined();
    expect(parseBasicAuthorization('Bearer abc')).toBeUndefined();
    expect(parseBasicAuthorization('Basic')).toBeNull();
    expect(parseBasicAuthorization('Basic !!!')).toBeNull();
    expect(parseBasicAuthorization(`Basic ${b64('no-colon')}`)).toBeNull();
    expect(parseBasicAuthorization(`Basic ${b64(':secret')}`)).toBeNull();
    expect(parseBasicAuthorization(`basic ${b64('ac_1:se:cr:et')}`)).toEqual({ clientId: 'ac_1', secret: 'se:cr:et' });
  });
});
