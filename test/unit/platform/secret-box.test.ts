import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret } from '../../../domain/secret-box';

describe('secret box (AES-256-GCM at rest)', () => {
  const key = randomBytes(32);

  it('round-trips and never contains the plaintext', () => {
    const sealed = sealSecret(key, 'sk_live_very_secret', 'acme\u0000vapi');
    expect(sealed).not.toContain('sk_live_very_secret');
    expect(openSecret(key, sealed, 'acme\u0000vapi')).toBe('sk_live_very_secret');
  });

  it('uses a fresh IV each time', () => {
    expect(sealSecret(key, 'x', 'a')).not.toBe(sealSecret(key, 'x', 'a'));
  });

  it('refuses a ciphertext moved to another row (associated data)', () => {
    const sealed = sealSecret(key, 'x', 'tenant-a\u0000vapi');
    expect(() => openSecret(key, sealed, 'tenant-b\u0000vapi')).toThrow();
  });

  it('refuses a tampered ciphertext and a wrong key', () => {
    const sealed = sealSecret(key, 'hello', 'a');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => openSecret(key, parts.join('.'), 'a')).toThrow();
    expect(() => openSecret(randomBytes(32), sealed, 'a')).toThrow();
  });
});
