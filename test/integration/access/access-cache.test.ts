import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app';
import { expireGrant } from '../../../services/access/grants';
import { createListeningAccessCache } from '../../../workers/access-cache-listener';
import { client, useTestApp, type TestContext } from '../../support/app';
import { seedTenant } from '../../support/fixtures';

describe('access cache across API nodes', () => {
  const ctx = useTestApp();
  // A second API node: same database, its own cache and LISTEN connection.
  const nodeB = {} as TestContext;
  let stopB = async () => {};

  beforeAll(async () => {
    const access = await createListeningAccessCache(ctx.db.sql, 60_000, pino({ level: 'silent' }));
    stopB = access.stop;
    nodeB.deps = { ...ctx.deps, accessCache: access.cache };
    nodeB.app = createApp(nodeB.deps);
  });
  afterAll(() => stopB());

  async function eventually(check: () => Promise<boolean>) {
    // A hang guard, not a speed limit: the notice is waited for, however loaded the machine.
    const deadline = Date.now() + 120_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('not reached within 120 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('a revocation on one node takes effect on that node at once and on another node by NOTIFY', async () => {
    const t = await seedTenant(ctx, { members: ['m'], subscribe: ['PHONE'], grants: [{ user: 'm', code: 'PHONE', level: 'read' }] });
    const a = client(ctx);
    const b = client(nodeB);
    // Both nodes have cached the grant.
    expect((await a.get('/api/my-capabilities', t.as('m'))).json).toEqual({ PHONE: 'read' });
    expect((await b.get('/api/my-capabilities', t.as('m'))).json).toEqual({ PHONE: 'read' });
    await a.del(`/api/tenants/${t.id}/users/m/capabilities/PHONE`, t.asOwner);
    expect((await a.get('/api/my-capabilities', t.as('m'))).json).toEqual({});
    await eventually(async () => JSON.stringify((await b.get('/api/my-capabilities', t.as('m'))).json) === '{}');
  });

  it('a suspension and a member removal reach the other node too', async () => {
    const t = await seedTenant(ctx, { members: ['m'], subscribe: ['SLA'], grants: [{ user: 'm', code: 'SLA', level: 'read-write' }] });
    const b = client(nodeB);
    expect((await b.get('/api/my-capabilities', t.as('m'))).json).toEqual({ SLA: 'read-write' });
    await client(ctx).del(`/api/tenants/${t.id}/capabilities/SLA`, t.asOwner);
    await eventually(async () => JSON.stringify((await b.get('/api/my-capabilities', t.as('m'))).json) === '{}');
    await client(ctx).del(`/api/tenants/${t.id}/members/m`, t.asOwner);
    await eventually(async () => (await b.get('/api/my-capabilities', t.as('m'))).status === 403);
  });

  it("a grant revoked at its end by its timer's operation (expireGrant, reason expired) reaches the other node too", async () => {
    const t = await seedTenant(ctx, { members: ['m'], subscribe: ['PHONE'] });
    const a = client(ctx);
    const b = client(nodeB);
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    expect((await a.put(`/api/tenants/${t.id}/users/m/capabilities/PHONE`, t.asOwner, { level: 'read', expiresAt })).status).toBe(200);
    expect((await b.get('/api/my-capabilities', t.as('m'))).json).toEqual({ PHONE: 'read' });
    // The end passes (as if the hour were over) and the timer's activity revokes: no API request is involved.
    const [grant] = await ctx.db.sql<{ expiry_id: string }[]>`
      update capability_grants set expires_at = now() - interval '1 second'
      where tenant_id = ${t.id} and user_id = 'm' and capability_code = 'PHONE' returning expiry_id`;
    expect(await expireGrant(ctx.db.db, { tenantId: t.id, userId: 'm', code: 'PHONE', expiryId: grant!.expiry_id })).toEqual({ outcome: 'revoked' });
    await eventually(async () => JSON.stringify((await b.get('/api/my-capabilities', t.as('m'))).json) === '{}');
    expect((await a.get('/api/my-capabilities', t.as('m'))).json).toEqual({});
  });

  it('a rolled-back change sends no notice and changes nothing', async () => {
    const t = await seedTenant(ctx, { members: ['m'], subscribe: ['PHONE'] });
    // 422: not a member; the transaction that would have granted is rolled back.
    const res = await client(ctx).put(`/api/tenants/${t.id}/users/ghost/capabilities/PHONE`, t.asOwner, { level: 'read' });
    expect(res.status).toBe(422);
    expect((await client(nodeB).get('/api/my-capabilities', t.as('m'))).json).toEqual({});
  });
});
