import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { expectProblem, seedTenant } from '../../support/fixtures';

/**
 * Tenant isolation is absolute: a record of another tenant behaves as if it does not exist.
 * Every access route with a tenant in its path, called by tenant A's owner for tenant B, is 404,
 * and B's records addressed through A are 404 too.
 */
describe('cross-tenant isolation of access routes', () => {
  const ctx = useTestApp();
  let a: Awaited<ReturnType<typeof seedTenant>>;
  let b: Awaited<ReturnType<typeof seedTenant>>;
  let bRequestId: string;
  let bInvitationId: string;

  beforeAll(async () => {
    a = await seedTenant(ctx, { members: ['a-member'], subscribe: ['PHONE'] });
    b = await seedTenant(ctx, { members: ['b-member'], subscribe: ['PHONE'] });
    const api = client(ctx);
    const r = await api.post('/api/access-requests', b.as('b-member'), { capabilityCode: 'PHONE', requestedLevel: 'read' });
    bRequestId = r.json.id;
    bInvitationId = (await api.post(`/api/tenants/${b.id}/invitations`, b.asOwner, {})).json.id;
    await api.post(`/api/tenants/${b.id}/candidate-groups`, b.asOwner, { name: 'bgroup' });
  });

  it('every /api/tenants/{t}/... route answers 404 for another tenant', async () => {
    const doc = (await client(ctx).get('/openapi.json', null)).json;
    const fill = (path: string) =>
      path
        .replace('{t}', b.id)
        .replace('{u}', 'b-member')
        .replace('{code}', 'PHONE')
        .replace('{g}', 'bgroup')
        .replace('{id}', bInvitationId);
    let checked = 0;
    for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
      if (!path.startsWith('/api/tenants/{t}')) continue;
      for (const method of Object.keys(ops)) {
        const body = method === 'put' || method === 'post' ? { level: 'read', role: 'member', name: 'x' } : undefined;
        const res = await client(ctx).call(method.toUpperCase(), fill(path), a.asOwner, body);
        expect(res.status, `${method.toUpperCase()} ${path}: ${res.text}`).toBe(404);
        expect(res.json.code).toBe('tenant-not-found');
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it('tenant B’s access request is 404 through tenant A for cancel, approve and deny', async () => {
    const api = client(ctx);
    expectProblem(await api.post(`/api/access-requests/${bRequestId}/cancel`, a.as('a-member')), 404);
    expectProblem(await api.post(`/api/org/access-requests/${bRequestId}/approve`, a.asOwner), 404);
    expectProblem(await api.post(`/api/org/access-requests/${bRequestId}/deny`, a.asOwner), 404);
    expect((await api.get('/api/org/access-requests', a.asOwner)).json).toEqual([]);
  });

  it('a member of A presenting X-Tenant-Id B is refused (403 not-a-member), and B’s data never shows in A', async () => {
    const api = client(ctx);
    expectProblem(await api.get('/api/my-capabilities', { user: 'a-member', tenant: b.id }), 403, 'not-a-member');
    const members = (await api.get(`/api/tenants/${a.id}/members`, a.asOwner)).json.map((m: { userId: string }) => m.userId);
    expect(members).not.toContain('b-member');
    const audit = (await api.get(`/api/tenants/${a.id}/access-audit`, a.asOwner)).json.items;
    expect(audit.every((e: { tenantId: string }) => e.tenantId === a.id)).toBe(true);
  });
});
