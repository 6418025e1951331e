import { describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { expectProblem, seedTenant } from '../../support/fixtures';

describe('identity middleware and problem responses', () => {
  const ctx = useTestApp();

  it('answers 400 missing-header when X-User-Id is absent on a tenant route', async () => {
    const res = await client(ctx).get('/api/my-capabilities', null, { 'X-Tenant-Id': 'acme' });
    expectProblem(res, 400, 'missing-header');
    expect(res.json.header).toBe('X-User-Id');
  });

  it('answers 400 missing-header when X-Tenant-Id is absent on a tenant route', async () => {
    const res = await client(ctx).get('/api/my-capabilities', { user: 'u1' });
    expectProblem(res, 400, 'missing-header');
    expect(res.json.header).toBe('X-Tenant-Id');
  });

  it('answers 400 malformed-header for a malformed tenant id or user id', async () => {
    const api = client(ctx);
    expectProblem(await api.get('/api/my-capabilities', { user: 'u1', tenant: 'Bad Tenant!' }), 400, 'malformed-header');
    expectProblem(await api.get('/api/my-capabilities', { user: 'has space', tenant: 'acme' }), 400, 'malformed-header');
    expectProblem(
      await api.get('/api/my-capabilities', { user: 'u1', tenant: 'acme' }, { 'X-User-Email': 'not-an-email' }),
      400,
      'malformed-header',
    );
  });

  it('answers 404 tenant-not-found for a tenant that does not exist', async () => {
    expectProblem(await client(ctx).get('/api/my-capabilities', { user: 'u1', tenant: 'no-such-tenant' }), 404, 'tenant-not-found');
  });

  it('answers 403 not-a-member for a user who is not a member of an existing tenant', async () => {
    const t = await seedTenant(ctx);
    expectProblem(await client(ctx).get('/api/my-capabilities', t.as('stranger')), 403, 'not-a-member');
  });

  it('echoes a well-formed X-Request-Id and invents one otherwise', async () => {
    const api = client(ctx);
    const given = await api.get('/health/live', null, { 'X-Request-Id': 'req-123' });
    expect(given.headers.get('x-request-id')).toBe('req-123');
    const invented = await api.get('/health/live', null, { 'X-Request-Id': 'bad id with spaces' });
    expect(invented.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('puts the request id into problem bodies', async () => {
    const res = await client(ctx).get('/api/my-capabilities', null, { 'X-Request-Id': 'trace-me' });
    expect(res.json.requestId).toBe('trace-me');
  });

  it('answers unknown routes with a 404 problem', async () => {
    expectProblem(await client(ctx).get('/api/nope', null), 404, 'route-not-found');
  });

  it('answers malformed JSON with a 400 problem, never 500', async () => {
    const res = await client(ctx).post('/api/tenants', { user: 'u1' }, '{"id": "x",');
    expectProblem(res, 400);
  });

  it('answers a body failing validation with 400 validation-failed naming the field', async () => {
    const res = await client(ctx).post('/api/tenants', { user: 'u1' }, { id: 'UPPER case', name: '' });
    expectProblem(res, 400, 'validation-failed');
    const paths = res.json.errors.map((e: { path: string }) => e.path);
    expect(paths).toContain('json.id');
    expect(paths).toContain('json.name');
  });

  it('keeps the user directory current from X-User-Name and resolves names at read time', async () => {
    const t = await seedTenant(ctx, { members: ['dir-user'] });
    const api = client(ctx);
    await api.get('/api/my-capabilities', { ...t.as('dir-user'), name: 'First Name' });
    let members = await api.get(`/api/tenants/${t.id}/members`, t.asOwner);
    expect(members.json.find((m: { userId: string }) => m.userId === 'dir-user').name).toBe('First Name');
    await api.get('/api/my-capabilities', { ...t.as('dir-user'), name: 'Renamed', email: 'r@example.com' });
    members = await api.get(`/api/tenants/${t.id}/members`, t.asOwner);
    expect(members.json.find((m: { userId: string }) => m.userId === 'dir-user')).toMatchObject({
      name: 'Renamed',
      email: 'r@example.com',
    });
  });

  it('serves the OpenAPI 3.1 document and the docs page', async () => {
    const api = client(ctx);
    const doc = await api.get('/openapi.json', null);
    expect(doc.status).toBe(200);
    expect(doc.json.openapi).toBe('3.1.0');
    expect(Object.keys(doc.json.paths)).toContain('/api/org/access-requests/{id}/approve');
    const page = await api.get('/docs', null);
    expect(page.status).toBe(200);
    expect(page.text).toContain('/docs/assets/init.js');
    expect((await api.get('/docs/assets/init.js', null)).text).toContain("url: '/openapi.json'");
    const asset = await api.get('/docs/assets/swagger-ui-bundle.js', null);
    expect(asset.status).toBe(200);
    expect(asset.text.length).toBeGreaterThan(100_000);
  });
});
