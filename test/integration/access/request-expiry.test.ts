// Pending access requests expire after access.request-ttl-days (7 here): every request operation
// treats one past its lifetime as EXPIRED (which frees the one-open-request rule), and the expiry
// sweep, run as its workflow on the real Temporal server, moves them in batches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessExpiryActivities } from '../../../activities/access-expiry';
import type { AccessRequestExpirySweepReport } from '../../../domain/access/expiry-processes';
import { client, useTestApp } from '../../support/app';
import { expectProblem, seedTenant } from '../../support/fixtures';
import { startTestWorker, type TestWorker } from '../../support/temporal';

describe('access requests expire', () => {
  const ctx = useTestApp({ 'access.request-ttl-days': 7 });
  const api = client(ctx);
  let worker: TestWorker;

  beforeAll(async () => {
    worker = await startTestWorker(createAccessExpiryActivities({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger }));
  });
  afterAll(async () => {
    await worker?.stop();
  });

  const submit = (t: { id: string }, user: string, code = 'PHONE') =>
    api.post('/api/access-requests', { user, tenant: t.id }, { capabilityCode: code, requestedLevel: 'read' });
  const age = (id: string, days: number) => ctx.db.sql`update access_requests set created_at = now() - make_interval(days => ${days}) where id = ${id}`;
  const statusOf = async (id: string) => (await ctx.db.sql<{ status: string }[]>`select status from access_requests where id = ${id}`)[0]?.status;

  it('a request older than the lifetime lets a new one open: the old one is EXPIRED and audited', async () => {
    const t = await seedTenant(ctx, { members: ['ann'], subscribe: ['PHONE'] });
    const old = await submit(t, 'ann');
    expect(old.status, old.text).toBe(201);
    expectProblem(await submit(t, 'ann'), 409, 'request-already-open');
    await age(old.json.id, 6);
    expectProblem(await submit(t, 'ann'), 409, 'request-already-open');
    await age(old.json.id, 8);
    const fresh = await submit(t, 'ann');
    expect(fresh.status, fresh.text).toBe(201);
    const mine = (await api.get('/api/my-access-requests', t.as('ann'))).json as Array<{ id: string; status: string; decidedAt: string | null }>;
    expect(mine.map((r) => [r.id, r.status])).toEqual([
      [fresh.json.id, 'PENDING'],
      [old.json.id, 'EXPIRED'],
    ]);
    expect(mine[1]!.decidedAt).not.toBeNull();
    const audit = await ctx.db.sql<{ actor: string; detail: Record<string, unknown> }[]>`
      select actor, detail from access_audit where tenant_id = ${t.id} and action = 'request.expire'`;
    expect(audit).toEqual([{ actor: 'system:request-expiry', detail: { accessRequestId: old.json.id, reason: 'expired', ttlDays: 7 } }]);
  });

  it('an expired request cannot be approved, denied or cancelled (409 request-not-pending), and no grant is made', async () => {
    const t = await seedTenant(ctx, { members: ['bea'], subscribe: ['PHONE'] });
    const ids: string[] = [];
    for (const code of ['PHONE', 'FORMS', 'SLA']) {
      await api.put(`/api/tenants/${t.id}/capabilities/${code}`, t.asOwner);
      const r = await submit(t, 'bea', code);
      expect(r.status, r.text).toBe(201);
      await age(r.json.id, 30);
      ids.push(r.json.id);
    }
    const approve = await api.post(`/api/org/access-requests/${ids[0]}/approve`, t.asOwner);
    expectProblem(approve, 409, 'request-not-pending');
    expect(approve.json.detail).toContain('EXPIRED');
    expectProblem(await api.post(`/api/org/access-requests/${ids[1]}/deny`, t.asOwner), 409, 'request-not-pending');
    expectProblem(await api.post(`/api/access-requests/${ids[2]}/cancel`, t.as('bea')), 409, 'request-not-pending');
    expect((await api.get(`/api/tenants/${t.id}/users/bea/capabilities`, t.asOwner)).json).toEqual([]);
    expect((await api.get('/api/org/access-requests?status=EXPIRED', t.asOwner)).json.map((r: { id: string }) => r.id).sort()).toEqual([...ids].sort());
    expect((await api.get('/api/org/access-requests', t.asOwner)).json).toEqual([]);
  });

  it('submitting in parallel after the lifetime passed, in a loop: exactly one new request opens each time', async () => {
    const t = await seedTenant(ctx, { members: ['cy'], subscribe: ['PHONE'] });
    let open = (await submit(t, 'cy')).json.id as string;
    for (let round = 0; round < 5; round++) {
      await age(open, 8);
      const answers = await Promise.all(Array.from({ length: 6 }, () => submit(t, 'cy')));
      const created = answers.filter((a) => a.status === 201);
      expect(created, answers.map((a) => a.text).join('\n')).toHaveLength(1);
      for (const a of answers) if (a.status !== 201) expectProblem(a, 409, 'request-already-open');
      expect(await statusOf(open)).toBe('EXPIRED');
      open = created[0]!.json.id;
    }
  });

  it('the expiry sweep (its workflow) moves overdue PENDING requests of every tenant to EXPIRED in batches, and leaves the others', async () => {
    const a = await seedTenant(ctx, { members: ['u1', 'u2'], subscribe: ['PHONE'] });
    const b = await seedTenant(ctx, { members: ['u3', 'u4'], subscribe: ['PHONE'] });
    const overdue = [(await submit(a, 'u1')).json.id, (await submit(a, 'u2')).json.id, (await submit(b, 'u3')).json.id];
    const current = (await submit(b, 'u4')).json.id;
    for (const id of overdue) await age(id, 9);
    const report: AccessRequestExpirySweepReport = await worker.client.workflow.execute('accessRequestExpirySweep', {
      taskQueue: worker.taskQueue,
      workflowId: `access:all-tenants:request-expiry-sweep-${Date.now()}`,
      args: [{ ttlDays: 7, batchSize: 2 }],
    });
    expect(report.byTenant).toMatchObject({ [a.id]: 2, [b.id]: 1 });
    expect(report.batches).toBeGreaterThanOrEqual(2);
    for (const id of overdue) expect(await statusOf(id)).toBe('EXPIRED');
    expect(await statusOf(current)).toBe('PENDING');
  });
});
