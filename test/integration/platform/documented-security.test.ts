import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { seedTenant } from '../../support/fixtures';

type Operation = { security?: Array<Record<string, string[]>> };
type Doc = { paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };

/**
 * The security each operation of /openapi.json documents is what its route enforces: it is
 * derived from the route's middleware (api/openapi-security.ts), and these calls hold it to
 * the behaviour — credentials documented means a call without any is refused, none documented
 * means nobody is asked for them, and the documented Basic alternative is really accepted.
 */
describe('documented security matches what the routes enforce', () => {
  const ctx = useTestApp({ 'phone.webhook-secret': 'voice-secret-for-tests', 'phone.webhook-require-secret': true });
  let doc: Doc;
  let t: Awaited<ReturnType<typeof seedTenant>>;
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })));
  const concrete = (path: string) => path.replace('{t}', t.id).replace(/\{[^}]+\}/g, 'x');
  const call = (method: string, path: string, headers: Record<string, string> = {}) =>
    client(ctx).call(method, concrete(path), null, method === 'GET' ? undefined : {}, headers);

  beforeAll(async () => {
    doc = (await client(ctx).get('/openapi.json', null)).json as Doc;
    t = await seedTenant(ctx, { subscribe: ['CALENDAR', 'SLA'] });
  });

  it('every operation names its security, using only schemes the document defines', () => {
    const schemes = Object.keys(doc.components.securitySchemes);
    expect(schemes).toEqual(expect.arrayContaining(['UserId', 'TenantId', 'ApiClient', 'InternalKey', 'VoiceSecret']));
    for (const { path, method, op } of operations()) {
      expect(op.security, `${method} ${path}`).toBeInstanceOf(Array);
      for (const alternative of op.security!) for (const name of Object.keys(alternative)) expect(schemes, `${method} ${path}`).toContain(name);
    }
  });

  it('names what each kind of route checks', () => {
    const of = (method: string, path: string) => doc.paths[path]![method]!.security;
    expect(of('get', '/health/live')).toEqual([]);
    expect(of('get', '/api/capabilities')).toEqual([{ UserId: [] }]);
    expect(of('get', '/api/my-capabilities')).toEqual([{ TenantId: [], UserId: [] }]);
    expect(of('get', '/api/business-calendars')).toEqual([{ TenantId: [], UserId: [] }, { ApiClient: [], TenantId: [] }]);
    expect(of('post', '/api/documents')).toEqual([{ TenantId: [], UserId: [] }]);
    expect(of('post', '/api/internal/phone-calls')).toEqual([{ InternalKey: [] }]);
    expect(of('post', '/api/public/phone/webhook')).toEqual([{ VoiceSecret: [] }]);
  });

  it('every operation documented with credentials refuses a call that brings none', async () => {
    let checked = 0;
    for (const { path, method, op } of operations()) {
      if (op.security!.length === 0) continue;
      const res = await call(method, path);
      expect([400, 401, 403], `${method} ${path}: ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
      // A 400 here must be the missing credential, not some other complaint about the call.
      if (res.status === 400) expect(res.json.code, `${method} ${path}`).toBe('missing-header');
      checked++;
    }
    expect(checked).toBeGreaterThan(80);
  });

  it('no operation documented as public asks for credentials', async () => {
    const open = operations().filter(({ op }) => op.security!.length === 0);
    expect(open.length).toBeGreaterThan(0);
    for (const { path, method } of open) {
      const res = await call(method, path);
      expect(res.status, `${method} ${path}`).not.toBe(401);
      if (res.status === 400) expect(res.json.code, `${method} ${path}`).not.toBe('missing-header');
    }
  });

  it('every operation documenting the ApiClient alternative takes Basic credentials instead of X-User-Id', async () => {
    const basic = operations().filter(({ op }) => op.security!.some((alt) => 'ApiClient' in alt));
    expect(basic.length).toBeGreaterThan(10);
    const wrong = `Basic ${Buffer.from('no-such-client:wrong-secret').toString('base64')}`;
    for (const { path, method } of basic) {
      const res = await call(method, path, { Authorization: wrong, 'X-Tenant-Id': t.id });
      // Judged as an API client (its credentials are wrong), never as a caller missing X-User-Id.
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.json.code, `${method} ${path}`).toBe('invalid-credentials');
    }
  });
});
