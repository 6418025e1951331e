import { describe, expect, it } from 'vitest';
import { client, OPERATOR, useTestApp } from '../../support/app';
import { expectProblem, seedTenant } from '../../support/fixtures';

describe('capability catalog', () => {
  const ctx = useTestApp();
  const op = { user: OPERATOR };

  it('seeds CALENDAR, SLA and PHONE as the spec states, plus FORMS, SIGNATURES and EMAIL', async () => {
    const res = await client(ctx).get('/api/capabilities', { user: 'anyone' });
    expect(res.status).toBe(200);
    const byCode = Object.fromEntries(res.json.map((c: { code: string }) => [c.code, c]));
    expect(byCode.CALENDAR).toMatchObject({ name: 'Business Calendars', route: '/calendars', tier: 'STANDARD', status: 'ACTIVE' });
    expect(byCode.SLA).toMatchObject({ name: 'SLA Management', route: '/sla', tier: 'PREMIUM', status: 'ACTIVE' });
    expect(byCode.PHONE).toMatchObject({ name: 'Phone / Voice', route: '/phone', tier: 'STANDARD' });
    expect(Object.keys(byCode)).toEqual(expect.arrayContaining(['FORMS', 'SIGNATURES', 'EMAIL']));
  });

  it('gets one entry by code and answers 404 for an unknown code', async () => {
    const api = client(ctx);
    expect((await api.get('/api/capabilities/SLA', { user: 'x' })).json.code).toBe('SLA');
    expectProblem(await api.get('/api/capabilities/NOPE', { user: 'x' }), 404, 'capability-not-found');
    expectProblem(await api.get('/api/capabilities/lower', { user: 'x' }), 400, 'validation-failed');
  });

  it('lets operators create (201), refuses a duplicate code (409) and a bad body (400)', async () => {
    const api = client(ctx);
    const body = { code: 'REPORTS', name: 'Reports', route: '/reports', tier: 'FREE' };
    const created = await api.post('/api/capabilities', op, body);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ code: 'REPORTS', status: 'ACTIVE', icon: '' });
    expectProblem(await api.post('/api/capabilities', op, body), 409, 'capability-exists');
    expectProblem(await api.post('/api/capabilities', op, { code: 'X', name: '' }), 400, 'validation-failed');
  });

  it('upserts with PUT: 201 on create, 200 on replace', async () => {
    const api = client(ctx);
    const first = await api.put('/api/capabilities/ARCHIVE', op, { name: 'Archive', route: '/archive' });
    expect(first.status).toBe(201);
    const second = await api.put('/api/capabilities/ARCHIVE', op, { name: 'Archive 2', route: '/archive', tier: 'PREMIUM' });
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ name: 'Archive 2', tier: 'PREMIUM' });
  });

  it('refuses catalog changes to non-operators with 403 operator-required', async () => {
    const api = client(ctx);
    const t = await seedTenant(ctx);
    const owner = { user: t.owner };
    expectProblem(await api.post('/api/capabilities', owner, { code: 'MINE', name: 'M', route: '/m' }), 403, 'operator-required');
    expectProblem(await api.put('/api/capabilities/SLA', owner, { name: 'M', route: '/m' }), 403, 'operator-required');
    expectProblem(await api.del('/api/capabilities/SLA', owner), 403, 'operator-required');
  });

  it('soft-retires with DELETE; a retired capability cannot be subscribed (409)', async () => {
    const api = client(ctx);
    await api.put('/api/capabilities/OLDIE', op, { name: 'Old', route: '/old' });
    const retired = await api.del('/api/capabilities/OLDIE', op);
    expect(retired.status).toBe(200);
    expect(retired.json.status).toBe('RETIRED');
    expect((await api.get('/api/capabilities/OLDIE', { user: 'x' })).json.status).toBe('RETIRED');
    const t = await seedTenant(ctx);
    expectProblem(await api.put(`/api/tenants/${t.id}/capabilities/OLDIE`, t.asOwner), 409, 'capability-retired');
    expectProblem(await api.del('/api/capabilities/GHOST', op), 404, 'capability-not-found');
  });
});
