import { describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { expectProblem, seedTenant } from '../../support/fixtures';

describe('subscriptions and grants', () => {
  const ctx = useTestApp();

  it('enables a subscription (ACTIVE), lists it for members and owners', async () => {
    const t = await seedTenant(ctx, { members: ['m1'], subscribe: ['PHONE'] });
    const api = client(ctx);
    const mine = await api.get('/api/my-subscriptions', t.as('m1'));
    expect(mine.json).toEqual([expect.objectContaining({ capabilityCode: 'PHONE', status: 'ACTIVE', capabilityName: 'Phone / Voice' })]);
    const listed = await api.get(`/api/tenants/${t.id}/capabilities`, t.asOwner);
    expect(listed.json.map((s: { capabilityCode: string }) => s.capabilityCode)).toEqual(['PHONE']);
  });

  it('suspends with DELETE and re-enables SUSPENDED → ACTIVE with PUT', async () => {
    const t = await seedTenant(ctx, { subscribe: ['SLA'] });
    const api = client(ctx);
    expect((await api.del(`/api/tenants/${t.id}/capabilities/SLA`, t.asOwner)).status).toBe(204);
    expect((await api.get('/api/my-subscriptions', t.asOwner)).json[0].status).toBe('SUSPENDED');
    expect((await api.put(`/api/tenants/${t.id}/capabilities/SLA`, t.asOwner)).json.status).toBe('ACTIVE');
  });

  it('hard-removes with ?hard=true and answers 404 for a subscription that does not exist', async () => {
    const t = await seedTenant(ctx, { subscribe: ['SLA'] });
    const api = client(ctx);
    expect((await api.del(`/api/tenants/${t.id}/capabilities/SLA?hard=true`, t.asOwner)).status).toBe(204);
    expect((await api.get('/api/my-subscriptions', t.asOwner)).json).toEqual([]);
    expectProblem(await api.del(`/api/tenants/${t.id}/capabilities/SLA?hard=true`, t.asOwner), 404, 'subscription-not-found');
    expectProblem(await api.del(`/api/tenants/${t.id}/capabilities/SLA`, t.asOwner), 404, 'subscription-not-found');
    expectProblem(await api.del(`/api/tenants/${t.id}/capabilities/SLA?hard=maybe`, t.asOwner), 400, 'validation-failed');
  });

  it('answers 404 capability-not-found when subscribing to an unknown code', async () => {
    const t = await seedTenant(ctx);
    expectProblem(await client(ctx).put(`/api/tenants/${t.id}/capabilities/NOPE`, t.asOwner), 404, 'capability-not-found');
  });

  it('rule 1: my-capabilities shows a grant only while the subscription is ACTIVE', async () => {
    const t = await seedTenant(ctx, {
      members: ['m1'],
      subscribe: ['PHONE', 'SLA'],
      grants: [
        { user: 'm1', code: 'PHONE', level: 'read-write' },
        { user: 'm1', code: 'SLA', level: 'read' },
      ],
    });
    const api = client(ctx);
    expect((await api.get('/api/my-capabilities', t.as('m1'))).json).toEqual({ PHONE: 'read-write', SLA: 'read' });
    await api.del(`/api/tenants/${t.id}/capabilities/SLA`, t.asOwner);
    expect((await api.get('/api/my-capabilities', t.as('m1'))).json).toEqual({ PHONE: 'read-write' });
    const grants = await api.get(`/api/tenants/${t.id}/users/m1/capabilities`, t.asOwner);
    const sla = grants.json.find((g: { capabilityCode: string }) => g.capabilityCode === 'SLA');
    expect(sla).toMatchObject({ level: 'read', effectiveLevel: null });
  });

  it('setting a grant while the tenant is not subscribed answers 409 tenant-not-subscribed', async () => {
    const t = await seedTenant(ctx, { members: ['m1'] });
    const res = await client(ctx).put(`/api/tenants/${t.id}/users/m1/capabilities/PHONE`, t.asOwner, { level: 'read' });
    expectProblem(res, 409, 'tenant-not-subscribed');
  });

  it('setting a grant for a non-member answers 422, for an unknown capability 404, for a bad level 400', async () => {
    const t = await seedTenant(ctx, { subscribe: ['PHONE'] });
    const api = client(ctx);
    expectProblem(await api.put(`/api/tenants/${t.id}/users/ghost/capabilities/PHONE`, t.asOwner, { level: 'read' }), 422, 'user-not-a-member');
    expectProblem(await api.put(`/api/tenants/${t.id}/users/${t.owner}/capabilities/NOPE`, t.asOwner, { level: 'read' }), 404, 'capability-not-found');
    expectProblem(await api.put(`/api/tenants/${t.id}/users/${t.owner}/capabilities/PHONE`, t.asOwner, { level: 'admin' }), 400, 'validation-failed');
  });

  it('revokes a grant, and a second revoke is 404', async () => {
    const t = await seedTenant(ctx, { members: ['m1'], subscribe: ['PHONE'], grants: [{ user: 'm1', code: 'PHONE', level: 'read' }] });
    const api = client(ctx);
    expect((await api.del(`/api/tenants/${t.id}/users/m1/capabilities/PHONE`, t.asOwner)).status).toBe(204);
    expect((await api.get('/api/my-capabilities', t.as('m1'))).json).toEqual({});
    expectProblem(await api.del(`/api/tenants/${t.id}/users/m1/capabilities/PHONE`, t.asOwner), 404, 'grant-not-found');
  });

  it('owner-only routes refuse plain members with 403 owner-required', async () => {
    const t = await seedTenant(ctx, { members: ['m1'], subscribe: ['PHONE'] });
    const api = client(ctx);
    const m = t.as('m1');
    expectProblem(await api.get(`/api/tenants/${t.id}/capabilities`, m), 403, 'owner-required');
    expectProblem(await api.put(`/api/tenants/${t.id}/capabilities/SLA`, m), 403, 'owner-required');
    expectProblem(await api.del(`/api/tenants/${t.id}/capabilities/PHONE`, m), 403, 'owner-required');
    expectProblem(await api.get(`/api/tenants/${t.id}/users/m1/capabilities`, m), 403, 'owner-required');
    expectProblem(await api.put(`/api/tenants/${t.id}/users/m1/capabilities/PHONE`, m, { level: 'read' }), 403, 'owner-required');
    expectProblem(await api.del(`/api/tenants/${t.id}/users/m1/capabilities/PHONE`, m), 403, 'owner-required');
  });

  it('platform operators administer a tenant they are not a member of', async () => {
    const t = await seedTenant(ctx, { members: ['m1'] });
    const api = client(ctx);
    expect((await api.put(`/api/tenants/${t.id}/capabilities/PHONE`, t.operator)).status).toBe(200);
    expect((await api.put(`/api/tenants/${t.id}/users/m1/capabilities/PHONE`, t.operator, { level: 'read' })).status).toBe(200);
    // ...but have no personal member routes there.
    expectProblem(await api.get('/api/my-capabilities', t.operator), 403, 'not-a-member');
  });
});
