// The whole API's identity in auth.mode=jwt: every operation of the served OpenAPI document that
// needs the user refuses a call without an assertion (401) and one with X-User-Id (400), and gets
// past identity with a valid one. Routes with credentials of their own (the internal key, HTTP
// Basic of API clients, public tokens) keep them; header mode is what it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app';
import type { Settings } from '../../../workers/config';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { jwtSettings } from '../../stand-ins/jwks/jwt-settings';
import { startJwks, type HeldKey, type JwksStandIn } from '../../stand-ins/jwks/server';
import { mintToken } from '../../stand-ins/jwks/tokens';

type Operation = { security: Array<Record<string, string[]>> };
type Doc = { paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, Record<string, string>> } };

const IDENTITY_CODES = ['token-required', 'invalid-token', 'unexpected-identity-header', 'missing-header', 'authentication-required'];

let provider: JwksStandIn;
let key: HeldKey;
const overrides: Partial<Settings> = {};
beforeAll(async () => {
  provider = await startJwks();
  key = await provider.addKey('ES256');
  Object.assign(overrides, jwtSettings(provider));
});
afterAll(async () => provider?.stop());
const ctx = useTestApp(overrides);

const tokenFor = (user: string) => mintToken(provider, key, user, { claims: { name: `User ${user}` } });

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown, app = ctx.app) {
  const withBody = body !== undefined || method !== 'GET';
  const res = await app.request(path, {
    method,
    headers: withBody ? { ...headers, 'Content-Type': 'application/json' } : headers,
    body: withBody ? JSON.stringify(body ?? {}) : undefined,
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}

describe('auth.mode=jwt across the whole API', () => {
  let doc: Doc;
  let owner: string;
  const tenant = 'walk';

  beforeAll(async () => {
    doc = (await call('GET', '/openapi.json', {})).json as Doc;
    owner = await tokenFor('walk-owner');
    const created = await call('POST', '/api/tenants', { Authorization: `Bearer ${owner}` }, { id: tenant, name: 'Walk' });
    expect(created.status, created.text).toBe(201);
  });

  const userOperations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.security.some((alt) => 'UserId' in alt))
        // Behind the internal key the calling tier names the user itself (see below).
        .filter(([, op]) => !op.security.every((alt) => 'InternalKey' in alt))
        .map(([method, op]) => ({ method: method.toUpperCase(), path: path.replace('{t}', tenant).replace(/\{[^}]+\}/g, 'x'), op })),
    );

  it('every operation that needs the user: 401 without an assertion, 400 with X-User-Id, past identity with a valid token', async () => {
    const stranger = await tokenFor('walk-stranger');
    const operations = userOperations();
    expect(operations.length).toBeGreaterThan(100);
    for (const { method, path, op } of operations) {
      const at = `${method} ${path}`;
      const basicToo = op.security.some((alt) => 'ApiClient' in alt);

      const none = await call(method, path, { 'X-Tenant-Id': tenant });
      expect(none.status, `${at}: ${none.text}`).toBe(401);
      expect(none.json.code, at).toBe(basicToo ? 'authentication-required' : 'token-required');
      expect(none.headers.get('www-authenticate'), at).toMatch(basicToo ? /^Basic / : /^Bearer realm=/);

      const header = await call(method, path, { 'X-Tenant-Id': tenant, 'X-User-Id': 'walk-owner' });
      expect(header.status, `${at}: ${header.text}`).toBe(400);
      expect(header.json.code, at).toBe('unexpected-identity-header');

      const valid = await call(method, path, { 'X-Tenant-Id': tenant, Authorization: `Bearer ${stranger}` });
      expect(valid.status, `${at}: ${valid.text}`).not.toBe(401);
      expect(valid.status, `${at}: ${valid.text}`).toBeLessThan(500);
      if (valid.status === 400) expect(IDENTITY_CODES, `${at}: ${valid.text}`).not.toContain(valid.json?.code);
    }
  });

  it('documents the UserId scheme as the bearer assertion, or as the gateway header auth.jwt-header names', async () => {
    expect(doc.components.securitySchemes.UserId).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    const pomerium = createApp({ ...ctx.deps, settings: { ...ctx.settings, 'auth.jwt-header': 'X-Pomerium-Jwt-Assertion' } });
    const served = (await call('GET', '/openapi.json', {}, undefined, pomerium)).json as Doc;
    expect(served.components.securitySchemes.UserId).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Pomerium-Jwt-Assertion' });
  });

  it('no public operation asks for an assertion', async () => {
    const open = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.security.length === 0)
        .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'x') })),
    );
    expect(open.length).toBeGreaterThan(10);
    for (const { method, path } of open) {
      const res = await call(method, path, {});
      expect(res.status, `${method} ${path}`).not.toBe(401);
      expect(IDENTITY_CODES, `${method} ${path}`).not.toContain(res.json?.code);
    }
  });

  it('the internal registry routes keep taking the user from X-User-Id behind the internal key', async () => {
    const headers = { 'X-Internal-Key': INTERNAL_KEY, 'X-Tenant-Id': tenant, 'X-User-Id': 'walk-owner' };
    const res = await call('GET', '/api/internal/documents/00000000-0000-4000-8000-000000000000', headers);
    expect(res.status, res.text).toBe(404);
    expect(res.json.code).toBe('document-not-found');
  });

  it("API clients keep their HTTP Basic credentials on the calendar routes", async () => {
    const asOwner = { Authorization: `Bearer ${owner}`, 'X-Tenant-Id': tenant };
    expect((await call('PUT', `/api/tenants/${tenant}/capabilities/CALENDAR`, asOwner)).status).toBe(200);
    const created = await call('POST', `/api/tenants/${tenant}/api-clients`, asOwner, { name: 'scheduler' });
    expect(created.status, created.text).toBe(201);
    const { clientId, secret } = created.json as { clientId: string; secret: string };
    const grant = await call('PUT', `/api/tenants/${tenant}/users/${clientId}/capabilities/CALENDAR`, asOwner, { level: 'read' });
    expect(grant.status, grant.text).toBe(200);
    const basic = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
    const listed = await call('GET', '/api/business-calendars', { Authorization: basic, 'X-Tenant-Id': tenant });
    expect(listed.status, listed.text).toBe(200);
    // A gateway assertion beside Basic credentials is two identities: refused, never picked silently.
    const both = await call('GET', '/api/business-calendars', { Authorization: basic, 'X-Tenant-Id': tenant, 'X-User-Id': 'walk-owner' });
    expect(both.json.code).toBe('conflicting-credentials');
  });
});

describe('auth.mode=header (the default) is unchanged', () => {
  const headerApp = () => createApp({ ...ctx.deps, settings: { ...ctx.settings, 'auth.mode': 'header' }, jwtVerifier: undefined });

  it('X-User-Id identifies the caller and a bearer assertion alone is no identity', async () => {
    const app = headerApp();
    expect((await call('GET', '/api/capabilities', { 'X-User-Id': 'ada' }, undefined, app)).status).toBe(200);
    const bare = await call('GET', '/api/capabilities', { Authorization: `Bearer ${await tokenFor('ada')}` }, undefined, app);
    expect(bare.status).toBe(400);
    expect(bare.json).toMatchObject({ code: 'missing-header', header: 'X-User-Id' });
  });

  it('documents X-User-Id as the UserId scheme', async () => {
    const served = (await call('GET', '/openapi.json', {}, undefined, headerApp())).json as Doc;
    expect(served.components.securitySchemes.UserId).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-User-Id' });
  });
});
