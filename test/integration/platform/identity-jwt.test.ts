// auth.mode=jwt (docs/identity.md): the user comes only from an assertion signed by the identity
// provider, checked against its key set served by a local stand-in (test/stand-ins/jwks). Every
// refusal is a problem with a Bearer challenge that never quotes the token; a key set that cannot
// be had is a 503, never a 500 and never a pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app';
import { jwtVerifierFor } from '../../../integrations/identity/jwt-verifier';
import type { Settings } from '../../../workers/config';
import { useTestApp } from '../../support/app';
import { jwtSettings } from '../../stand-ins/jwks/jwt-settings';
import { startJwks, type HeldKey, type JwksStandIn } from '../../stand-ins/jwks/server';
import { foreignKey, hmacToken, mintToken, unsignedToken } from '../../stand-ins/jwks/tokens';

const REALM = 'Bearer realm="tenant-capability-platform"';
const now = () => Math.floor(Date.now() / 1000);

let provider: JwksStandIn;
let key: HeldKey;
const overrides: Partial<Settings> = {};
beforeAll(async () => {
  provider = await startJwks();
  key = await provider.addKey('RS256');
  Object.assign(overrides, jwtSettings(provider));
});
afterAll(async () => provider?.stop());
const ctx = useTestApp(overrides);

/** Another app on the suite's database with its own settings and its own verifier (key set cache). */
function appWith(more: Partial<Settings> = {}) {
  const settings = { ...ctx.settings, ...more };
  return createApp({ ...ctx.deps, settings, jwtVerifier: jwtVerifierFor(settings) });
}

type App = ReturnType<typeof createApp>;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
/** A route that needs nothing but the user: 200 once the caller is identified. */
const ask = async (headers: Record<string, string>, app: App = ctx.app) => app.request('/api/capabilities', { headers });

async function refused(res: Response, status: number, code: string, token?: string) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = JSON.parse(text);
  expect(body.code).toBe(code);
  if (token) {
    expect(text).not.toContain(token.split('.')[1] ?? token);
    expect(res.headers.get('www-authenticate') ?? '').not.toContain(token.split('.')[1] ?? token);
  }
  return body as { detail: string };
}

async function invalid(token: string, description: string, app?: App) {
  const res = await ask(bearer(token), app);
  const body = await refused(res, 401, 'invalid-token', token);
  expect(res.headers.get('www-authenticate')).toBe(`${REALM}, error="invalid_token", error_description="${description}"`);
  expect(body.detail).toBe(description);
}

describe('auth.mode=jwt: a valid assertion identifies the caller', () => {
  it('identifies the user by the sub claim and refreshes the directory from name and email', async () => {
    const token = await mintToken(provider, key, 'ada', { claims: { name: 'Ada Lovelace', email: 'ada@example.com' } });
    const created = await ctx.app.request('/api/tenants', {
      method: 'POST',
      headers: { ...bearer(token), 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: 'analytical', name: 'Analytical Engines' }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    expect((await created.json()).createdBy).toBe('ada');
    const members = await ctx.app.request('/api/tenants/analytical/members', { headers: { ...bearer(token), 'X-Tenant-Id': 'analytical' } });
    expect(members.status).toBe(200);
    expect(await members.json()).toEqual([expect.objectContaining({ userId: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' })]);
  });

  it.each(['PS256', 'ES256', 'EdDSA'] as const)('accepts %s, an allowed asymmetric algorithm', async (alg) => {
    const other = await provider.addKey(alg);
    // A node that has not fetched the key set yet, so the new key is in its first fetch.
    expect((await ask(bearer(await mintToken(provider, other, 'grace')), appWith())).status).toBe(200);
  });

  it('tolerates auth.clock-skew-seconds of expiry and not-before', async () => {
    const claims = { exp: now() - 30, nbf: now() + 30 };
    expect((await ask(bearer(await mintToken(provider, key, 'skewed', { claims })))).status).toBe(200);
  });

  it('reads the assertion from a gateway header set in auth.jwt-header and other claims as configured', async () => {
    const app = appWith({ 'auth.jwt-header': 'X-Pomerium-Jwt-Assertion', 'auth.user-claim': 'user' });
    const token = await mintToken(provider, key, 'ignored-sub', { claims: { user: 'linus' } });
    expect((await ask({ 'X-Pomerium-Jwt-Assertion': token }, app)).status).toBe(200);
    // Anywhere else it is no assertion at all.
    await refused(await ask(bearer(token), app), 401, 'token-required');
  });

  it('ignores a name or email claim it cannot use instead of refusing the user', async () => {
    const token = await mintToken(provider, key, 'odd', { claims: { name: 'line\nbreak', email: 42 } });
    expect((await ask(bearer(token))).status).toBe(200);
  });
});

describe('auth.mode=jwt: every refusal', () => {
  it('a request without an assertion: 401 token-required with a bare Bearer challenge (RFC 6750 §3.1)', async () => {
    const res = await ask({});
    await refused(res, 401, 'token-required');
    expect(res.headers.get('www-authenticate')).toBe(REALM);
    await refused(await ask({ Authorization: 'Basic YWRhOnNlY3JldA==' }), 401, 'token-required');
  });

  it('X-User-Id in jwt mode: 400 unexpected-identity-header, even beside a valid token', async () => {
    await refused(await ask({ 'X-User-Id': 'mallory' }), 400, 'unexpected-identity-header');
    const token = await mintToken(provider, key, 'ada');
    await refused(await ask({ ...bearer(token), 'X-User-Id': 'ada' }), 400, 'unexpected-identity-header');
  });

  it('malformed', async () => {
    await invalid('not-a-jwt', 'The token is malformed');
    await invalid('e30.e30.e30', 'The token is malformed');
    await refused(await ask({ Authorization: 'Bearer' }), 401, 'invalid-token');
    await refused(await ask({ Authorization: `Bearer ${'a'.repeat(17_000)}` }), 401, 'invalid-token');
  });

  it('expired', async () => invalid(await mintToken(provider, key, 'ada', { claims: { exp: now() - 3600 } }), 'The token has expired'));

  it('not yet valid', async () => invalid(await mintToken(provider, key, 'ada', { claims: { nbf: now() + 3600 } }), 'The token is not yet valid'));

  it('another issuer', async () => invalid(await mintToken(provider, key, 'ada', { claims: { iss: 'https://evil.example' } }), 'The token was issued by another issuer'));

  it('another audience', async () => invalid(await mintToken(provider, key, 'ada', { claims: { aud: 'another-service' } }), 'The token is meant for another audience'));

  it('no expiry', async () => invalid(await mintToken(provider, key, 'ada', { claims: { exp: undefined } }), 'The token lacks the exp claim'));

  it('no usable user claim', async () => {
    await invalid(await mintToken(provider, key, 'ada', { claims: { sub: undefined } }), 'The token lacks a usable sub claim');
    await invalid(await mintToken(provider, key, 'has space'), 'The token lacks a usable sub claim');
  });

  it('an unknown key', async () => {
    const stranger = await foreignKey('never-published');
    await invalid(await mintToken(provider, stranger, 'ada'), "No key of the identity provider matches the token's key id");
  });

  it('a known key id over a signature of another key', async () => {
    const impostor = await foreignKey(key.kid);
    await invalid(await mintToken(provider, impostor, 'ada'), 'The token signature is invalid');
  });

  it('alg none and HMAC are refused algorithms (also HS256 keyed with the public key)', async () => {
    const description = "The token's signing algorithm is not allowed (allowed: RS256, PS256, ES256, EdDSA)";
    await invalid(unsignedToken(provider, 'ada', key.kid), description);
    await invalid(hmacToken(provider, 'ada', key.kid, JSON.stringify(key.publicJwk)), description);
  });
});

describe('auth.mode=jwt: key rotation', () => {
  it('fetches a new kid at once (one fetch for a burst of parallel requests)', async () => {
    const app = appWith({ 'auth.jwks-cooldown-seconds': 0 });
    for (let round = 0; round < 3; round++) {
      const rotated = await provider.addKey('ES256');
      const before = provider.fetches();
      const token = await mintToken(provider, rotated, 'ada');
      const statuses = await Promise.all(Array.from({ length: 12 }, () => ask(bearer(token), app).then((r) => r.status)));
      expect(statuses).toEqual(Array(12).fill(200));
      expect(provider.fetches() - before).toBe(1);
    }
  });

  it('within the cool-down an unknown kid is refused without fetching again', async () => {
    const app = appWith({ 'auth.jwks-cooldown-seconds': 3600 });
    expect((await ask(bearer(await mintToken(provider, key, 'ada')), app)).status).toBe(200);
    const before = provider.fetches();
    const late = await provider.addKey('RS256');
    await invalid(await mintToken(provider, late, 'ada'), "No key of the identity provider matches the token's key id", app);
    expect(provider.fetches()).toBe(before);
  });

  it('a removed key keeps verifying from the cache, and stops once the set is fetched again', async () => {
    const leaving = await provider.addKey('RS256');
    const token = await mintToken(provider, leaving, 'ada');
    const cached = appWith({ 'auth.jwks-cache-max-age-seconds': 3600 });
    const refreshing = appWith({ 'auth.jwks-cache-max-age-seconds': 0 });
    expect((await ask(bearer(token), cached)).status).toBe(200);
    expect((await ask(bearer(token), refreshing)).status).toBe(200);
    provider.removeKey(leaving.kid);
    expect((await ask(bearer(token), cached)).status).toBe(200);
    await invalid(token, "No key of the identity provider matches the token's key id", refreshing);
  });
});

describe('auth.mode=jwt: the key set cannot be had', () => {
  const unavailable = async (app: App) => {
    const token = await mintToken(provider, key, 'ada');
    const res = await ask(bearer(token), app);
    await refused(res, 503, 'identity-provider-unavailable', token);
    expect(res.headers.get('retry-after')).toBe('5');
  };

  it('down (connection refused): 503 identity-provider-unavailable with Retry-After, then 200 once it is back', async () => {
    const app = appWith();
    await provider.down();
    try {
      await unavailable(app);
    } finally {
      await provider.up();
    }
    expect((await ask(bearer(await mintToken(provider, key, 'ada')), app)).status).toBe(200);
  });

  it.each(['error', 'garbage', 'hang'] as const)('answering %s: 503, never a 500 and never a pass', async (behaviour) => {
    provider.behave(behaviour);
    try {
      await unavailable(appWith({ 'auth.jwks-timeout-ms': 300 }));
    } finally {
      provider.behave('ok');
    }
  });

  it('keys already fetched keep verifying while the provider is down', async () => {
    const app = appWith();
    const token = await mintToken(provider, key, 'ada');
    expect((await ask(bearer(token), app)).status).toBe(200);
    await provider.down();
    try {
      expect((await ask(bearer(token), app)).status).toBe(200);
    } finally {
      await provider.up();
    }
  });
});
