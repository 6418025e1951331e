import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { client, useTestApp, type TestContext } from '../../support/app';
import { seedTenant } from '../../support/fixtures';

const ROUNDS = 20;

/** Grants and tenant-group memberships held by someone who is not a member of that tenant. */
async function strayRights(ctx: TestContext, tenantId: string) {
  const grants = await ctx.db.db.execute(sql`select g.user_id from capability_grants g
    where g.tenant_id = ${tenantId} and not exists (select 1 from tenant_members m
      where m.tenant_id = g.tenant_id and m.user_id = g.user_id)`);
  const groups = await ctx.db.db.execute(sql`select gm.user_id, gm.group_id from group_members gm
    join groups g on g.id = gm.group_id
    where g.tenant_id = ${tenantId} and not exists (select 1 from tenant_members m
      where m.tenant_id = g.tenant_id and m.user_id = gm.user_id)`);
  return [...grants, ...groups];
}

type Answer = { status: number; text: string };

/**
 * Runs `write` and the removal of member m1 side by side, ROUNDS times, each on a fresh tenant:
 * neither answers 5xx, each answers one of its expected statuses, and afterwards no non-member
 * holds a grant or a group membership.
 */
async function race(
  ctx: TestContext,
  setup: (t: Awaited<ReturnType<typeof seedTenant>>) => Promise<() => Promise<Answer>>,
  writeStatuses: number[],
  removeStatuses: number[] = [204],
) {
  const api = client(ctx);
  for (let round = 0; round < ROUNDS; round++) {
    const t = await seedTenant(ctx, { members: ['m1'], subscribe: ['PHONE', 'SLA'] });
    const write = await setup(t);
    const [w, r] = await Promise.all([write(), api.del(`/api/tenants/${t.id}/members/m1`, t.asOwner)]);
    expect(writeStatuses, `round ${round}: ${w.text}`).toContain(w.status);
    expect(removeStatuses, `round ${round}: ${r.text}`).toContain(r.status);
    expect(await strayRights(ctx, t.id), `round ${round}`).toEqual([]);
  }
}

describe('membership-dependent writes racing a member removal', () => {
  const ctx = useTestApp();
  const api = client(ctx);

  it(`a grant set while the member is removed never survives on the non-member (${ROUNDS} rounds)`, async () => {
    await race(ctx, async (t) => () => api.put(`/api/tenants/${t.id}/users/m1/capabilities/PHONE`, t.asOwner, { level: 'read' }), [200, 422]);
  });

  it(`a role-group add while the member is removed never leaves a non-member in the group (${ROUNDS} rounds)`, async () => {
    await race(
      ctx,
      async (t) => {
        expect((await api.post(`/api/tenants/${t.id}/candidate-groups`, t.asOwner, { name: 'approvers' })).status).toBe(201);
        return () => api.put(`/api/tenants/${t.id}/candidate-groups/approvers/members/m1`, t.asOwner);
      },
      [204, 422],
    );
  });

  it(`an approval racing the requester's removal ends in a decision, never a deadlock or a 500 (${ROUNDS} rounds)`, async () => {
    await race(
      ctx,
      async (t) => {
        const req = await api.post('/api/access-requests', t.as('m1'), { capabilityCode: 'SLA', requestedLevel: 'read' });
        expect(req.status, req.text).toBe(201);
        return () => api.post(`/api/org/access-requests/${req.json.id}/approve`, t.asOwner);
      },
      [200, 409],
    );
  });

  it(`accepting a tenant-admin invitation while being removed never leaves a non-member owner (${ROUNDS} rounds)`, async () => {
    await race(
      ctx,
      async (t) => {
        const inv = await api.post(`/api/tenants/${t.id}/invitations`, t.asOwner, { role: 'tenant-admin' });
        expect(inv.status, inv.text).toBe(201);
        return () => api.post(`/api/invitations/${inv.json.token}/accept`, { user: 'm1' });
      },
      [200],
      // The acceptance may land first and make m1 an owner among two: the removal still succeeds.
      [204],
    );
  });

  it(`making the member an owner while they are removed never leaves a non-member owner (${ROUNDS} rounds)`, async () => {
    await race(ctx, async (t) => () => api.put(`/api/tenants/${t.id}/owners/m1`, t.asOwner), [204]);
  });

  it(`promoting the member to tenant-admin while they are removed never leaves a non-member owner (${ROUNDS} rounds)`, async () => {
    await race(ctx, async (t) => () => api.put(`/api/tenants/${t.id}/members/m1/role`, t.asOwner, { role: 'tenant-admin' }), [204, 404]);
  });
});

describe('the database floor: grants and tenant-group memberships need the membership', () => {
  const ctx = useTestApp();

  it('refuses a grant or a tenant-group membership for a non-member, and removes both with the member', async () => {
    const t = await seedTenant(ctx, { members: ['m1'], subscribe: ['PHONE'], grants: [{ user: 'm1', code: 'PHONE', level: 'read' }] });
    const api = client(ctx);
    await api.post(`/api/tenants/${t.id}/candidate-groups`, t.asOwner, { name: 'crew' });
    await api.put(`/api/tenants/${t.id}/candidate-groups/crew/members/m1`, t.asOwner);
    const db = ctx.db.db;
    const grantGhost = await db
      .execute(sql`insert into capability_grants (tenant_id, user_id, capability_code, level, granted_by)
        values (${t.id}, 'ghost', 'PHONE', 'read', 'x')`)
      .catch((e: { cause?: { code?: string } }) => e.cause?.code);
    expect(grantGhost).toBe('23503');
    const groupGhost = await db
      .execute(sql`insert into group_members (group_id, user_id) values (${`role:${t.id}:crew`}, 'ghost')`)
      .catch((e: { cause?: { code?: string } }) => e.cause?.code);
    expect(groupGhost).toBe('23503');
    // A writer cannot claim another tenant for the row: the trigger copies the group's.
    await db.execute(sql`update group_members set tenant_id = 'elsewhere' where user_id = 'm1' and group_id = ${`role:${t.id}:crew`}`);
    await db.execute(sql`delete from tenant_members where tenant_id = ${t.id} and user_id = 'm1'`);
    expect(await db.execute(sql`select 1 from capability_grants where tenant_id = ${t.id} and user_id = 'm1'`)).toEqual([]);
    expect(await db.execute(sql`select 1 from group_members where user_id = 'm1' and group_id = ${`role:${t.id}:crew`}`)).toEqual([]);
  });
});
