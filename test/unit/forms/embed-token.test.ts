// The form embed token (domain/forms/embed-token.ts): a token is accepted only exactly as it was
// signed; the development session cookie (web/dev/session-cookie.ts) is checked the same way.
import { describe, expect, it } from 'vitest';
import { signEmbedToken, verifyEmbedToken } from '../../../domain/forms/embed-token';
import { openSession, sealSession } from '../../../web/dev/session-cookie';

const KEY = 'embed-key-for-tests-0123456789abcdef';
const PAYLOAD = { tenantId: 't-1', definitionId: '7b0c0a36-5d5b-4a8b-9d54-1f6f0f4f2a10', embedKeyVersion: 3 };
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The same MAC spelled differently: a 32-byte MAC's last base64url character carries 4 bits, so flipping an unused low bit decodes to the same bytes. */
const respelled = (sig: string) => sig.slice(0, -1) + ALPHABET[ALPHABET.indexOf(sig.at(-1)!) ^ 1];

describe('embed tokens', () => {
  const token = signEmbedToken(KEY, PAYLOAD);
  const [body, sig] = token.split('.') as [string, string];

  it('verify as signed, and not under another key', () => {
    expect(verifyEmbedToken(KEY, token)).toEqual(PAYLOAD);
    expect(verifyEmbedToken(`${KEY}x`, token)).toBeNull();
  });

  it('refuse another spelling of the same signature, though it decodes to the same bytes', () => {
    const other = respelled(sig);
    expect(other).not.toBe(sig);
    expect(Buffer.from(other, 'base64url')).toEqual(Buffer.from(sig, 'base64url'));
    expect(verifyEmbedToken(KEY, `${body}.${other}`)).toBeNull();
    // Characters outside the alphabet, which the decoder would skip.
    expect(verifyEmbedToken(KEY, `${body}.${sig}=`)).toBeNull();
    expect(verifyEmbedToken(KEY, `${body}.${sig.slice(0, 10)}!${sig.slice(10)}`)).toBeNull();
  });

  it('refuse a changed signature or body, a third part and an overlong token', () => {
    const flipped = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    expect(verifyEmbedToken(KEY, `${body}.${flipped(sig, 0)}`)).toBeNull();
    expect(verifyEmbedToken(KEY, `${flipped(body, 5)}.${sig}`)).toBeNull();
    expect(verifyEmbedToken(KEY, `${token}.x`)).toBeNull();
    expect(verifyEmbedToken(KEY, `${body}${'A'.repeat(600)}.${sig}`)).toBeNull();
  });
});

describe('development session cookies', () => {
  const secret = Buffer.alloc(32, 7);
  const user = { userId: 'ada', name: 'Ada', email: 'ada@example.com' };

  it('open as sealed, and refuse another spelling of the same MAC', () => {
    const cookie = sealSession(secret, user);
    expect(openSession(secret, cookie)).toMatchObject({ userId: 'ada' });
    const [body, tag] = cookie.split('.') as [string, string];
    expect(Buffer.from(respelled(tag), 'base64url')).toEqual(Buffer.from(tag, 'base64url'));
    expect(openSession(secret, `${body}.${respelled(tag)}`)).toBeUndefined();
  });
});
