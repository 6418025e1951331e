import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app';
import { client, useTestApp } from '../../support/app';
import { expectProblem, seedTenant, uniqueId } from '../../support/fixtures';

describe('tenants, members, owners and roles', () => {
  const ctx = useTestApp();

  it('creating a tenant makes the caller its first member and owner; a duplicate id is 409', async () => {
    const api = client(ctx);
    const id = uniqueId('new');
    const res = await api.post('/api/tenants', { user: 'founder' }, { id, name: 'New Co' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ id, name: 'New Co', createdBy: 'founder' });
    const members = await api.get(`/api/tenants/${id}/members`, { user: 'founder', tenant: id });
    expect(members.json).toEqual([expect.objectContaining({ userId: 'founder', role: 'tenant-admin', isOwner: true })]);
    expectProblem(await api.post('/api/tenants', { user: 'x' }, { id, name: 'Again' }), 409, 'tenant-exists');
  });

  it('adds members idempotently (201 then 200) and removes them (204, then 404)', async () => {
    const t = await seedTenant(ctx);
    const api = client(ctx);
    expect((await api.put(`/api/tenants/${t.id}/members/m1`, t.asOwner)).status).toBe(201);
    expect((await api.put(`/api/tenants/${t.id}/members/m1`, t.asOwner)).status).toBe(200);
    expect((await api.del(`/api/tenants/${t.id}/members/m1`, t.asOwner)).status).toBe(204);
    expectProblem(await api.del(`/api/tenants/${t.id}/members/m1`, t.asOwner), 404, 'member-not-found');
  });

  it('removing a member revokes their grants and cancels their open requests', async () => {
    const t = await seedTenant(ctx, { members: ['m1'], subscribe: ['PHONE', 'SLA'], grants: [{ user: 'm1', code: 'PHONE', level: 'read' }] });
    const api = client(ctx);
    await api.post('/api/access-requests', t.as('m1'), { capabilityCode: 'SLA', requestedLevel: 'read' });
    await api.del(`/api/tenants/${t.id}/members/m1`, t.asOwner);
    expect((await api.get(`/api/tenants/${t.id}/users/m1/capabilities`, t.asOwner)).json).toEqual([]);
    expect((await api.get('/api/org/access-requests', t.asOwner)).json).toEqual([]);
    await api.put(`/api/tenants/${t.id}/members/m1`, t.asOwner);
    expect((await api.get('/api/my-capabilities', t.as('m1'))).json).toEqual({});
  });

  it('co-owners: grant makes member + tenant-admin + owner; revoke returns to member', async () => {
    const t = await seedTenant(ctx);
    const api = client(ctx);
    expect((await api.put(`/api/tenants/${t.id}/owners/co`, t.asOwner)).status).toBe(204);
    let m = (await api.get(`/api/tenants/${t.id}/members`, t.asOwner)).json.find((x: { userId: string }) => x.userId === 'co');
    expect(m).toMatchObject({ role: 'tenant-admin', isOwner: true });
    expect((await api.get('/api/my-access', t.as('co'))).json.isOwner).toBe(true);
    expect((await api.del(`/api/tenants/${t.id}/owners/co`, t.asOwner)).status).toBe(204);
    m = (await api.get(`/api/tenants/${t.id}/members`, t.asOwner)).json.find((x: { userId: string }) => x.userId === 'co');
    expect(m).toMatchObject({ role: 'member', isOwner: false });
    expectProblem(await api.del(`/api/tenants/${t.id}/owners/co`, t.asOwner), 404, 'owner-not-found');
  });

  it('rule 5: the last owner cannot be removed (revoke, demote or member removal all 409)', async () => {
    const t = await seedTenant(ctx);
    const api = client(ctx);
    expectProblem(await api.del(`/api/tenants/${t.id}/owners/${t.owner}`, t.asOwner), 409, 'last-owner');
    expectProblem(await api.put(`/api/tenants/${t.id}/members/${t.owner}/role`, t.asOwner, { role: 'member' }), 409, 'last-owner');
    expectProblem(await api.del(`/api/tenants/${t.id}/members/${t.owner}`, t.asOwner), 409, 'last-owner');
  });

  it('two owners removing each other at the same moment leave exactly one owner', async () => {
    for (let round = 0; round < 5; round++) {
      const t = await seedTenant(ctx);
      const api = client(ctx);
      await api.put(`/api/tenants/${t.id}/owners/co`, t.asOwner);
      const [a, b] = await Promise.all([
        api.del(`/api/tenants/${t.id}/owners/co`, t.asOwner),
        api.del(`/api/tenants/${t.id}/owners/${t.owner}`, t.as('co')),
      ]);
      // The loser either got past the owner check and hit the last-owner guard (409), or was
      // no longer an owner by the time it was checked (403); never both removed.
      const statuses = [a.status, b.status].sort();
      expect(statuses[0]).toBe(204);
      expect([403, 409]).toContain(statuses[1]);
      const owners = (await api.get(`/api/tenants/${t.id}/members`, t.operator)).json.filter((m: { isOwner: boolean }) => m.isOwner);
      expect(owners).toHaveLength(1);
    }
  });

  it('rule 4: promotion to tenant-admin adds the owner binding; demotion removes it', async () => {
    const t = await seedTenant(ctx, { members: ['m1'] });
    const api = client(ctx);
    expect((await api.put(`/api/tenants/${t.id}/members/m1/role`, t.asOwner, { role: 'tenant-admin' })).status).toBe(204);
    expect((await api.get('/api/my-access', t.as('m1'))).json).toMatchObject({ isOwner: true });
    expect((await api.put(`/api/tenants/${t.id}/members/m1/role`, t.asOwner, { role: 'member' })).status).toBe(204);
    expect((await api.get('/api/my-access', t.as('m1'))).json).toMatchObject({ isOwner: false });
    expectProblem(await api.put(`/api/tenants/${t.id}/members/ghost/role`, t.asOwner, { role: 'member' }), 404, 'member-not-found');
    expectProblem(await api.put(`/api/tenants/${t.id}/members/m1/role`, t.asOwner, { role: 'king' }), 400, 'validation-failed');
  });

  it('my-access: members see Manage My Access only; owners and operators see every section', async () => {
    const t = await seedTenant(ctx, { members: ['m1'] });
    const api = client(ctx);
    expect((await api.get('/api/my-access', t.as('m1'))).json).toEqual({ isOwner: false, isOperator: false, sections: ['manage-my-access'] });
    const all = ['manage-my-access', 'approve-requests', 'members', 'candidate-groups', 'invitations'];
    expect((await api.get('/api/my-access', t.asOwner)).json).toEqual({ isOwner: true, isOperator: false, sections: all });
    expect((await api.get('/api/my-access', t.operator)).json).toEqual({ isOwner: false, isOperator: true, sections: all });
  });

  it('member routes are owner-only', async () => {
    const t = await seedTenant(ctx, { members: ['m1'] });
    const api = client(ctx);
    const m = t.as('m1');
    expectProblem(await api.get(`/api/tenants/${t.id}/members`, m), 403, 'owner-required');
    expectProblem(await api.put(`/api/tenants/${t.id}/members/x`, m), 403, 'owner-required');
    expectProblem(await api.del(`/api/tenants/${t.id}/members/x`, m), 403, 'owner-required');
    expectProblem(await api.put(`/api/tenants/${t.id}/owners/m1`, m), 403, 'owner-required');
    expectProblem(await api.del(`/api/tenants/${t.id}/owners/${t.owner}`, m), 403, 'owner-required');
    expectProblem(await api.put(`/api/tenants/${t.id}/members/m1/role`, m, { role: 'tenant-admin' }), 403, 'owner-required');
    expectProblem(await api.get(`/api/tenants/${t.id}/access-audit`, m), 403, 'owner-required');
  });

  it('writes an immutable audit row for every grant, revoke, decision and ownership change', async () => {
    const t = await seedTenant(ctx, { members: ['m1'], subscribe: ['PHONE'], grants: [{ user: 'm1', code: 'PHONE', level: 'read' }] });
    const api = client(ctx);
    await api.del(`/api/tenants/${t.id}/users/m1/capabilities/PHONE`, t.asOwner);
    await api.put(`/api/tenants/${t.id}/owners/m1`, t.asOwner);
    await api.del(`/api/tenants/${t.id}/owners/m1`, t.asOwner);
    const audit = await api.get(`/api/tenants/${t.id}/access-audit?limit=3`, t.asOwner);
    expect(audit.json.items.map((e: { action: string }) => e.action)).toEqual(['owner.revoke', 'owner.grant', 'grant.revoke']);
    expect(audit.json.items[0]).toMatchObject({ actor: t.owner, subjectUserId: 'm1' });
    const next = await api.get(`/api/tenants/${t.id}/access-audit?before=${audit.json.nextBefore}`, t.asOwner);
    const actions = next.json.items.map((e: { action: string }) => e.action);
    expect(actions).toEqual(['grant.set', 'subscription.enable', 'member.add', 'owner.grant', 'tenant.create']);
    expect(next.json.nextBefore).toBeNull();
    const update = await ctx.db.db.execute(sql`update access_audit set actor = 'forged'`).catch((e: Error) => e);
    expect(String((update as Error).cause)).toMatch(/immutable/);
    const del = await ctx.db.db.execute(sql`delete from access_audit`).catch((e: Error) => e);
    expect(String((del as Error).cause)).toMatch(/immutable/);
  });
});

describe('invitations and candidate groups', () => {
  const ctx = useTestApp();

  it('an invitation token works once: the caller becomes a member; reuse is 409', async () => {
    const t = await seedTenant(ctx);
    const api = client(ctx);
    const inv = await api.post(`/api/tenants/${t.id}/invitations`, t.asOwner, { email: 'new@example.com' });
    expect(inv.status).toBe(201);
    expect(inv.json).toMatchObject({ status: 'PENDING', role: 'member', email: 'new@example.com' });
    expect(inv.json.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const accepted = await api.post(`/api/invitations/${inv.json.token}/accept`, { user: 'newbie' });
    expect(accepted.json).toEqual({ tenantId: t.id, role: 'member' });
    expect((await api.get('/api/my-access', t.as('newbie'))).status).toBe(200);
    expectProblem(await api.post(`/api/invitations/${inv.json.token}/accept`, { user: 'other' }), 409, 'invitation-used');
    const listed = await api.get(`/api/tenants/${t.id}/invitations`, t.asOwner);
    expect(listed.json[0]).toMatchObject({ status: 'ACCEPTED', acceptedBy: 'newbie' });
    expect(listed.json[0].token).toBeUndefined();
  });

  it('a tenant-admin invitation makes the invitee an owner', async () => {
    const t = await seedTenant(ctx);
    const api = client(ctx);
    const inv = await api.post(`/api/tenants/${t.id}/invitations`, t.asOwner, { role: 'tenant-admin' });
    await api.post(`/api/invitations/${inv.json.token}/accept`, { user: 'co-owner' });
    expect((await api.get('/api/my-access', t.as('co-owner'))).json.isOwner).toBe(true);
  });

  it('an expired token is 410, a revoked or unknown one 404, a malformed one 400', async () => {
    const t = await seedTenant(ctx);
    const api = client(ctx);
    const past = createApp({ ...ctx.deps, clock: () => new Date(Date.now() - 400 * 3_600_000) });
    const res = await past.request(`/api/tenants/${t.id}/invitations`, {
      method: 'POST',
      headers: { 'X-User-Id': t.owner, 'X-Tenant-Id': t.id, 'Content-Type': 'application/json' },
      body: '{}',
    });
    const expired = (await res.json()) as { token: string };
    expectProblem(await api.post(`/api/invitations/${expired.token}/accept`, { user: 'late' }), 410, 'invitation-expired');
    const inv = await api.post(`/api/tenants/${t.id}/invitations`, t.asOwner, {});
    expect((await api.del(`/api/tenants/${t.id}/invitations/${inv.json.id}`, t.asOwner)).status).toBe(204);
    expectProblem(await api.post(`/api/invitations/${inv.json.token}/accept`, { user: 'x' }), 404, 'invitation-not-found');
    expectProblem(await api.del(`/api/tenants/${t.id}/invitations/${inv.json.id}`, t.asOwner), 404, 'invitation-not-found');
    expectProblem(await api.post(`/api/invitations/${'A'.repeat(43)}/accept`, { user: 'x' }), 404, 'invitation-not-found');
    expectProblem(await api.post('/api/invitations/short/accept', { user: 'x' }), 400, 'validation-failed');
    expectProblem(await api.post(`/api/tenants/${t.id}/invitations`, t.asOwner, { email: 'nope' }), 400, 'validation-failed');
  });

  it('candidate groups: create, list, add and remove tenant members; never the ownership group', async () => {
    const t = await seedTenant(ctx, { members: ['m1'] });
    const api = client(ctx);
    const created = await api.post(`/api/tenants/${t.id}/candidate-groups`, t.asOwner, { name: 'approvers', description: 'Approve things' });
    expect(created.status).toBe(201);
    expectProblem(await api.post(`/api/tenants/${t.id}/candidate-groups`, t.asOwner, { name: 'approvers' }), 409, 'group-exists');
    expectProblem(await api.post(`/api/tenants/${t.id}/candidate-groups`, t.asOwner, { name: 'Bad Name' }), 400, 'validation-failed');
    expect((await api.put(`/api/tenants/${t.id}/candidate-groups/approvers/members/m1`, t.asOwner)).status).toBe(204);
    expectProblem(await api.put(`/api/tenants/${t.id}/candidate-groups/approvers/members/ghost`, t.asOwner), 422, 'user-not-a-member');
    const groups = await api.get(`/api/tenants/${t.id}/candidate-groups`, t.asOwner);
    expect(groups.json).toEqual([expect.objectContaining({ id: 'approvers', memberCount: 1 })]);
    const members = await api.get(`/api/tenants/${t.id}/candidate-groups/approvers/members`, t.asOwner);
    expect(members.json.map((m: { userId: string }) => m.userId)).toEqual(['m1']);
    expect((await api.del(`/api/tenants/${t.id}/candidate-groups/approvers/members/m1`, t.asOwner)).status).toBe(204);
    expectProblem(await api.del(`/api/tenants/${t.id}/candidate-groups/approvers/members/m1`, t.asOwner), 404);
    expectProblem(await api.get(`/api/tenants/${t.id}/candidate-groups/nope/members`, t.asOwner), 404, 'group-not-found');
  });
});
