import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type Who } from '../../support/app';
import { BASE, formsApi, seedFormsTenant, VALID_DRAFT } from '../../support/forms';

type Doc = { paths: Record<string, Record<string, unknown>> };

/** Bodies good enough to pass validation, so what answers is the lookup. */
const bodyFor = (method: string, path: string) =>
  method === 'put' && path.endsWith('/draft')
    ? { draftSchema: VALID_DRAFT, version: 1 }
    : method === 'put' && path.endsWith('/outbound-config')
      ? { roles: {} }
      : method === 'post' && path.endsWith('/send')
        ? { recipient: { email: 'someone@example.com' } }
        : method === 'patch'
          ? { name: 'Renamed' }
          : method === 'post'
            ? {}
            : undefined;

/**
 * Tenant isolation and soft deletion: every route addressing a definition answers 404 for
 * another tenant's, and for a deleted one (except its audit trail, documented as readable).
 */
describe('form definitions: another tenant’s or a deleted definition is 404', () => {
  const ctx = useTestApp();
  const api = formsApi(ctx);
  let a: Awaited<ReturnType<typeof seedFormsTenant>>;
  let b: Awaited<ReturnType<typeof seedFormsTenant>>;
  let aDef: { id: string; code: string };
  let routes: Array<{ method: string; path: string }>;

  beforeAll(async () => {
    a = await seedFormsTenant(ctx);
    b = await seedFormsTenant(ctx);
    aDef = await api.create(a.asOwner);
    await api.checkIn(a.asOwner, aDef.id);
    await api.step(a.asOwner, aDef.id, 'sign-off');
    const doc = (await api.get('/openapi.json', null)).json as Doc;
    routes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith(`${BASE}/{id}`))
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method, path })));
  });

  const call = (who: Who, method: string, path: string, id: string) =>
    api.call(method.toUpperCase(), path.replace('{id}', id).replace('{v}', '1'), who, bodyFor(method, path));

  it('documents the routes of the issue under /api/form-definitions/{id}', () => {
    const names = routes.map((r) => `${r.method.toUpperCase()} ${r.path.slice(BASE.length)}`).sort();
    expect(names).toEqual(
      [
        'DELETE /{id}',
        'DELETE /{id}/purge',
        'GET /{id}',
        'PATCH /{id}',
        'GET /{id}/audit',
        'GET /{id}/embed-token',
        'POST /{id}/embed-token/rotate',
        'GET /{id}/versions',
        'GET /{id}/versions/{v}',
        'GET /{id}/versions/{v}/json-schema',
        'POST /{id}/checkout',
        'POST /{id}/clone',
        'POST /{id}/discard',
        'POST /{id}/release',
        'POST /{id}/restore',
        'POST /{id}/retire',
        'POST /{id}/sign-off',
        'POST /{id}/unretire',
        'POST /{id}/versions',
        'POST /{id}/versions/{v}/publish',
        'POST /{id}/versions/{v}/restore',
        'PUT /{id}/draft',
        'PUT /{id}/outbound-config',
        'POST /{id}/send',
      ].sort(),
    );
  });

  it("every route answers 404 definition-not-found for another tenant's definition and changes nothing", async () => {
    const before = await api.read(a.asOwner, aDef.id);
    for (const { method, path } of routes) {
      const r = await call(b.asOwner, method, path, aDef.id);
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(404);
      expect(r.json.code, `${method} ${path}`).toBe('definition-not-found');
    }
    expect((await api.get(`${BASE}/by-code/${aDef.code}`, b.asOwner)).status).toBe(404);
    expect((await api.get(`${BASE}?limit=200`, b.asOwner)).json.items).toEqual([]);
    const after = await api.read(a.asOwner, aDef.id);
    expect(after).toEqual(before);
  });

  it('every route but the audit trail, the undelete and the hard purge answers 404 for a deleted definition', async () => {
    const d = await api.create(a.asOwner);
    await api.checkIn(a.asOwner, d.id);
    expect((await api.del(`${BASE}/${d.id}`, a.asOwner)).status).toBe(204);
    // The undelete and the hard purge act on a deleted definition (test/integration/definitions); they are not called here.
    for (const { method, path } of routes) {
      if ((method === 'delete' && path.endsWith('/purge')) || (method === 'post' && path === `${BASE}/{id}/restore`)) continue;
      const r = await call(a.asOwner, method, path, d.id);
      if (method === 'get' && path.endsWith('/audit')) {
        expect(r.status, r.text).toBe(200);
        continue;
      }
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(404);
      expect(r.json.code).toBe('definition-not-found');
    }
  });
});
