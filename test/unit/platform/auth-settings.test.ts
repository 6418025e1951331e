import { describe, expect, it } from 'vitest';
import { ConfigError, loadSettings } from '../../../workers/config';

describe('auth settings (docs/identity.md)', () => {
  it('default to header mode with the documented claim names, header and bounds', () => {
    const s = loadSettings({});
    expect(s['auth.mode']).toBe('header');
    expect(s['auth.jwt-header']).toBe('Authorization');
    expect(s['auth.clock-skew-seconds']).toBe(60);
    expect([s['auth.user-claim'], s['auth.name-claim'], s['auth.email-claim']]).toEqual(['sub', 'name', 'email']);
    expect(s['auth.jwks-url']).toBeUndefined();
    expect(s['auth.audience']).toEqual([]);
  });

  it('jwt mode without a key set, issuer and audience refuses to start, naming each', () => {
    let error: unknown;
    try {
      loadSettings({ AUTH_MODE: 'jwt' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['AUTH_JWKS_URL', 'AUTH_ISSUER', 'AUTH_AUDIENCE']) expect(message).toContain(`AUTH_MODE=jwt needs ${name}`);
    expect(() => loadSettings({ AUTH_MODE: 'jwt', AUTH_JWKS_URL: 'https://idp.example/jwks.json', AUTH_ISSUER: 'https://idp.example' })).toThrow(
      /needs AUTH_AUDIENCE/,
    );
  });

  it('jwt mode with all three loads; the audience is a list', () => {
    const s = loadSettings({
      AUTH_MODE: 'jwt',
      AUTH_JWKS_URL: 'https://idp.example/.well-known/jwks.json',
      AUTH_ISSUER: 'https://idp.example',
      AUTH_AUDIENCE: 'platform, console',
      AUTH_JWT_HEADER: 'X-Pomerium-Jwt-Assertion',
    });
    expect(s['auth.audience']).toEqual(['platform', 'console']);
    expect(s['auth.jwt-header']).toBe('X-Pomerium-Jwt-Assertion');
  });

  it('refuses a key set URL that is no URL, a header name with spaces and a dotted claim', () => {
    expect(() => loadSettings({ AUTH_JWKS_URL: 'not a url' })).toThrow(/AUTH_JWKS_URL/);
    expect(() => loadSettings({ AUTH_JWT_HEADER: 'X Bad' })).toThrow(/AUTH_JWT_HEADER/);
    expect(() => loadSettings({ AUTH_USER_CLAIM: 'a.b' })).toThrow(/AUTH_USER_CLAIM/);
  });
});
