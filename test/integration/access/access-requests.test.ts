import { describe, expect, it } from 'vitest';
import { addGroupMember } from '../../../db/queries/membership';
import { client, useTestApp } from '../../support/app';
import { expectProblem, seedTenant } from '../../support/fixtures';

describe('access request lifecycle', () => {
  const ctx = useTestApp();

  const request = (t: { id: string }, user: string, body: object) =>
    client(ctx).post('/api/access-requests', { user, tenant: t.id, name: `Name of ${user}` }, body);

  it('submits PENDING with names and labels resolved at read time', async () => {
    const t = await seedTenant(ctx, { members: ['req'], subscribe: ['PHONE'] });
    const res = await request(t, 'req', { capabilityCode: 'PHONE', requestedLevel: 'read', note: 'please' });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({
      status: 'PENDING',
      userId: 'req',
      userName: 'Name of req',
      capabilityName: 'Phone / Voice',
      requestedLevel: 'read',
      note: 'please',
      decidedBy: null,
    });
  });

  it('422 capability-unknown for an unknown capability and requested-capability-not-subscribed when unsubscribed', async () => {
    const t = await seedTenant(ctx, { members: ['req'] });
    expectProblem(await request(t, 'req', { capabilityCode: 'NOPE', requestedLevel: 'read' }), 422, 'capability-unknown');
    expectProblem(await request(t, 'req', { capabilityCode: 'PHONE', requestedLevel: 'read' }), 422, 'requested-capability-not-subscribed');
  });

  it('409 request-already-open for a second open request, 409 already-granted when the level is held', async () => {
    const t = await seedTenant(ctx, {
      members: ['req'],
      subscribe: ['PHONE', 'SLA'],
      grants: [{ user: 'req', code: 'SLA', level: 'read-write' }],
    });
    expect((await request(t, 'req', { capabilityCode: 'PHONE', requestedLevel: 'read' })).status).toBe(201);
    expectProblem(await request(t, 'req', { capabilityCode: 'PHONE', requestedLevel: 'read-write' }), 409, 'request-already-open');
    expectProblem(await request(t, 'req', { capabilityCode: 'SLA', requestedLevel: 'read' }), 409, 'already-granted');
    expectProblem(await request(t, 'req', { capabilityCode: 'SLA', requestedLevel: 'read-write' }), 409, 'already-granted');
  });

  it('allows upgrading a read grant to read-write by request', async () => {
    const t = await seedTenant(ctx, { members: ['req'], subscribe: ['SLA'], grants: [{ user: 'req', code: 'SLA', level: 'read' }] });
    expect((await request(t, 'req', { capabilityCode: 'SLA', requestedLevel: 'read-write' })).status).toBe(201);
  });

  it('20 concurrent identical requests give exactly one 201 and nineteen 409', async () => {
    const t = await seedTenant(ctx, { members: ['racer'], subscribe: ['PHONE'] });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => request(t, 'racer', { capabilityCode: 'PHONE', requestedLevel: 'read' })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
  });

  it('lists my requests newest first, any status', async () => {
    const t = await seedTenant(ctx, { members: ['req'], subscribe: ['PHONE', 'SLA'] });
    const a = await request(t, 'req', { capabilityCode: 'PHONE', requestedLevel: 'read' });
    await client(ctx).post(`/api/access-requests/${a.json.id}/cancel`, t.as('req'));
    const b = await request(t, 'req', { capabilityCode: 'SLA', requestedLevel: 'read' });
    const mine = await client(ctx).get('/api/my-access-requests', t.as('req'));
    expect(mine.json.map((r: { id: string }) => r.id)).toEqual([b.json.id, a.json.id]);
    expect(mine.json.map((r: { status: string }) => r.status)).toEqual(['PENDING', 'CANCELLED']);
  });

  it('cancel: requester only (403 not-requester), PENDING only (409 request-not-pending), unknown id 404', async () => {
    const t = await seedTenant(ctx, { members: ['req', 'other'], subscribe: ['PHONE'] });
    const api = client(ctx);
    const r = await request(t, 'req', { capabilityCode: 'PHONE', requestedLevel: 'read' });
    expectProblem(await api.post(`/api/access-requests/${r.json.id}/cancel`, t.as('other')), 403, 'not-requester');
    const cancelled = await api.post(`/api/access-requests/${r.json.id}/cancel`, t.as('req'));
    expect(cancelled.json.status).toBe('CANCELLED');
    expectProblem(await api.post(`/api/access-requests/${r.json.id}/cancel`, t.as('req')), 409, 'request-not-pending');
    expectProblem(await api.post('/api/access-requests/00000000-0000-4000-8000-000000000000/cancel', t.as('req')), 404);
    expectProblem(await api.post('/api/access-requests/not-a-uuid/cancel', t.as('req')), 400, 'validation-failed');
  });

  it('owner queue defaults to PENDING and filters by status', async () => {
    const t = await seedTenant(ctx, { members: ['a', 'b'], subscribe: ['PHONE'] });
    const api = client(ctx);
    const ra = await request(t, 'a', { capabilityCode: 'PHONE', requestedLevel: 'read' });
    await request(t, 'b', { capabilityCode: 'PHONE', requestedLevel: 'read' });
    await api.post(`/api/org/access-requests/${ra.json.id}/deny`, t.asOwner, { decisionNote: 'no' });
    const pending = await api.get('/api/org/access-requests', t.asOwner);
    expect(pending.json.map((r: { userId: string }) => r.userId)).toEqual(['b']);
    const denied = await api.get('/api/org/access-requests?status=DENIED', t.asOwner);
    expect(denied.json).toEqual([expect.objectContaining({ userId: 'a', decisionNote: 'no', decidedBy: t.owner })]);
    expectProblem(await api.get('/api/org/access-requests?status=WHATEVER', t.asOwner), 400, 'validation-failed');
    expectProblem(await api.get('/api/org/access-requests', t.as('a')), 403, 'owner-required');
  });

  it('approve sets the grant at the requested level through the direct-grant path', async () => {
    const t = await seedTenant(ctx, { members: ['req'], subscribe: ['PHONE'] });
    const api = client(ctx);
    const r = await request(t, 'req', { capabilityCode: 'PHONE', requestedLevel: 'read' });
    const approved = await api.post(`/api/org/access-requests/${r.json.id}/approve`, t.asOwner);
    expect(approved.json).toMatchObject({ status: 'APPROVED', grantedLevel: 'read', decidedBy: t.owner });
    expect((await api.get('/api/my-capabilities', t.as('req'))).json).toEqual({ PHONE: 'read' });
    const audit = await api.get(`/api/tenants/${t.id}/access-audit`, t.asOwner);
    const actions = audit.json.items.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['grant.set', 'request.approve']));
  });

  it('approve with a level override grants that level instead', async () => {
    const t = await seedTenant(ctx, { members: ['req'], subscribe: ['PHONE'] });
    const api = client(ctx);
    const r = await request(t, 'req', { capabilityCode: 'PHONE', requestedLevel: 'read-write' });
    const approved = await api.post(`/api/org/access-requests/${r.json.id}/approve`, t.asOwner, { level: 'read' });
    expect(approved.json).toMatchObject({ requestedLevel: 'read-write', grantedLevel: 'read' });
    expect((await api.get('/api/my-capabilities', t.as('req'))).json).toEqual({ PHONE: 'read' });
    expectProblem(await api.post(`/api/org/access-requests/${r.json.id}/approve`, t.asOwner, { level: 'god' }), 400);
  });

  it('approve while the tenant is no longer subscribed is 409 and leaves the request PENDING', async () => {
    const t = await seedTenant(ctx, { members: ['req'], subscribe: ['PHONE'] });
    const api = client(ctx);
    const r = await request(t, 'req', { capabilityCode: 'PHONE', requestedLevel: 'read' });
    await api.del(`/api/tenants/${t.id}/capabilities/PHONE`, t.asOwner);
    expectProblem(await api.post(`/api/org/access-requests/${r.json.id}/approve`, t.asOwner), 409, 'tenant-not-subscribed');
    const mine = await api.get('/api/my-access-requests', t.as('req'));
    expect(mine.json[0].status).toBe('PENDING');
  });

  it('deny stores the decision note and makes no grant; deciding twice is 409', async () => {
    const t = await seedTenant(ctx, { members: ['req'], subscribe: ['PHONE'] });
    const api = client(ctx);
    const r = await request(t, 'req', { capabilityCode: 'PHONE', requestedLevel: 'read' });
    const denied = await api.post(`/api/org/access-requests/${r.json.id}/deny`, t.asOwner, { decisionNote: 'not now' });
    expect(denied.json).toMatchObject({ status: 'DENIED', decisionNote: 'not now' });
    expect((await api.get('/api/my-capabilities', t.as('req'))).json).toEqual({});
    expectProblem(await api.post(`/api/org/access-requests/${r.json.id}/approve`, t.asOwner), 409, 'request-not-pending');
    expectProblem(await api.post(`/api/org/access-requests/${r.json.id}/deny`, t.asOwner), 409, 'request-not-pending');
  });

  it('no self-approval: an owner’s own request is decided by another owner or an operator', async () => {
    const t = await seedTenant(ctx, { subscribe: ['PHONE'] });
    const api = client(ctx);
    const r = await request(t, t.owner, { capabilityCode: 'PHONE', requestedLevel: 'read' });
    expectProblem(await api.post(`/api/org/access-requests/${r.json.id}/approve`, t.asOwner), 403, 'self-approval');
    expectProblem(await api.post(`/api/org/access-requests/${r.json.id}/deny`, t.asOwner), 403, 'self-approval');
    const byOperator = await api.post(`/api/org/access-requests/${r.json.id}/approve`, t.operator);
    expect(byOperator.json.status).toBe('APPROVED');
  });

  it('rule 6: a bare global tenant-admin never decides', async () => {
    const t = await seedTenant(ctx, { members: ['req', 'global-admin'], subscribe: ['PHONE'] });
    await addGroupMember(ctx.db.db, 'tenant-admin', 'global-admin');
    const r = await request(t, 'req', { capabilityCode: 'PHONE', requestedLevel: 'read' });
    expectProblem(
      await client(ctx).post(`/api/org/access-requests/${r.json.id}/approve`, t.as('global-admin')),
      403,
      'owner-required',
    );
  });

  it('two owners approving the same request at once: exactly one wins', async () => {
    const t = await seedTenant(ctx, { members: ['req', 'co'], subscribe: ['PHONE'] });
    const api = client(ctx);
    await api.put(`/api/tenants/${t.id}/owners/co`, t.asOwner);
    const r = await request(t, 'req', { capabilityCode: 'PHONE', requestedLevel: 'read' });
    const results = await Promise.all([
      api.post(`/api/org/access-requests/${r.json.id}/approve`, t.asOwner),
      api.post(`/api/org/access-requests/${r.json.id}/deny`, t.as('co')),
    ]);
    expect(results.map((x) => x.status).sort()).toEqual([200, 409]);
  });
});
