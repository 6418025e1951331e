// Access that expires, on the real Temporal server through the outbox: a grant with expiresAt is
// revoked by its durable timer (audited `expired`, caches invalidated), a renewal or a removed end
// supersedes the old timer, approvals set ends, and a manual revoke racing the expiry leaves one
// revoke audit row and no error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessExpiryActivities } from '../../../activities/access-expiry';
import { createOutboxActivities } from '../../../activities/outbox';
import { getOutboxRow } from '../../../db/outbox';
import { expireGrant } from '../../../services/access/grants';
import { client, useTestApp } from '../../support/app';
import { eventually } from '../../support/ceremony';
import { expectProblem, seedTenant } from '../../support/fixtures';
import { startTestWorker, testDispatcher, type TestWorker } from '../../support/temporal';

describe('grants that expire (real Temporal server, outbox dispatcher)', () => {
  const ctx = useTestApp();
  const api = client(ctx);
  let worker: TestWorker;
  let dispatcher: ReturnType<typeof testDispatcher>;

  beforeAll(async () => {
    const deps = { db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger };
    worker = await startTestWorker({ ...createAccessExpiryActivities(deps), ...createOutboxActivities(deps) });
    dispatcher = testDispatcher(ctx, worker, ['ACCESS']);
    await dispatcher.start();
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await worker?.stop();
  });

  const grantPath = (t: { id: string }, user: string, code = 'PHONE') => `/api/tenants/${t.id}/users/${user}/capabilities/${code}`;
  const grantsOf = async (t: { id: string; asOwner: { user: string; tenant?: string } }, user: string) =>
    (await api.get(`/api/tenants/${t.id}/users/${user}/capabilities`, t.asOwner)).json as Array<{ capabilityCode: string; expiresAt: string | null }>;
  const expiryRow = async (t: { id: string }, user: string, code = 'PHONE') =>
    (await ctx.db.sql<{ expiry_id: string | null; expires_at: Date | null }[]>`
      select expiry_id, expires_at from capability_grants where tenant_id = ${t.id} and user_id = ${user} and capability_code = ${code}`)[0];
  const revokes = (t: { id: string }, user: string) =>
    ctx.db.sql<{ actor: string; detail: Record<string, unknown> }[]>`
      select actor, detail from access_audit where tenant_id = ${t.id} and subject_user_id = ${user} and action = 'grant.revoke' order by id`;
  // The dispatcher starts the timer after the grant's commit; asking a workflow that is not yet
  // started for its result is WorkflowNotFound, so the test waits for the start row to be sent.
  const timerOf = async (t: { id: string }, expiryId: string) => {
    await eventually(() => getOutboxRow(ctx.db.db, 'ACCESS', t.id, `grant-expiry-${expiryId}`), (row) => row?.state === 'STARTED' || row?.state === 'CLOSED');
    return worker.client.workflow.getHandle(`access:${t.id}:grant-expiry-${expiryId}`);
  };
  const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

  it('a grant expiring in seconds is revoked by its timer: audited with reason expired, gone from the grants and from the caller\'s capabilities', async () => {
    const t = await seedTenant(ctx, { members: ['alice'], subscribe: ['PHONE'] });
    // Room for the three reads below to happen before the end, even on a loaded machine (two
    // seconds were outrun once, and the caller snapshot rightly ignored the ended grant).
    const expiresAt = inSeconds(15);
    const put = await api.put(grantPath(t, 'alice'), t.asOwner, { level: 'read', expiresAt });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({ level: 'read', expiresAt });
    expect(await grantsOf(t, 'alice')).toMatchObject([{ capabilityCode: 'PHONE', expiresAt }]);
    expect((await api.get('/api/my-capabilities', t.as('alice'))).json).toEqual({ PHONE: 'read' });
    const { expiry_id } = (await expiryRow(t, 'alice'))!;
    expect(await (await timerOf(t, expiry_id!)).result()).toBe('revoked');
    expect(await grantsOf(t, 'alice')).toEqual([]);
    expect((await api.get('/api/my-capabilities', t.as('alice'))).json).toEqual({});
    const audit = await ctx.db.sql<{ actor: string; detail: Record<string, unknown>; at: string | Date }[]>`
      select actor, detail, created_at as at from access_audit where tenant_id = ${t.id} and action = 'grant.revoke'`;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'system:grant-expiry', detail: { level: 'read', reason: 'expired', expiresAt } });
    expect(new Date(audit[0]!.at).getTime()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    const row = (await ctx.db.sql<{ state: string }[]>`select state from outbox where business_key = ${`grant-expiry-${expiry_id}`} and verb = 'start'`)[0];
    expect(row?.state).toBe('CLOSED');
  });

  it('a renewed grant is not revoked by the old timer; a removed end ends its timer; the same end keeps its timer', async () => {
    const t = await seedTenant(ctx, { members: ['bob'], subscribe: ['PHONE'] });
    await api.put(grantPath(t, 'bob'), t.asOwner, { level: 'read', expiresAt: inSeconds(30) });
    const first = (await expiryRow(t, 'bob'))!.expiry_id!;
    const later = inSeconds(3600);
    const renewed = await api.put(grantPath(t, 'bob'), t.asOwner, { level: 'read-write', expiresAt: later });
    expect(renewed.json).toMatchObject({ level: 'read-write', expiresAt: later });
    const second = (await expiryRow(t, 'bob'))!.expiry_id!;
    expect(second).not.toBe(first);
    expect(await (await timerOf(t, first)).result()).toBe('superseded');
    // A late run of the old timer changes nothing either.
    expect(await expireGrant(ctx.db.db, { tenantId: t.id, userId: 'bob', code: 'PHONE', expiryId: first })).toEqual({ outcome: 'superseded' });
    expect(await grantsOf(t, 'bob')).toMatchObject([{ capabilityCode: 'PHONE', expiresAt: later }]);
    // The same end again: same timer, no new process.
    await api.put(grantPath(t, 'bob'), t.asOwner, { level: 'read-write', expiresAt: later });
    expect((await expiryRow(t, 'bob'))!.expiry_id).toBe(second);
    // No end: the timer is superseded and the grant lasts.
    const forever = await api.put(grantPath(t, 'bob'), t.asOwner, { level: 'read-write' });
    expect(forever.json.expiresAt).toBeNull();
    expect(await (await timerOf(t, second)).result()).toBe('superseded');
    expect(await expiryRow(t, 'bob')).toEqual({ expiry_id: null, expires_at: null });
    expect(await revokes(t, 'bob')).toEqual([]);
  });

  it('a manual revoke ends the timer; expireGrant before the end is not-yet', async () => {
    const t = await seedTenant(ctx, { members: ['carl'], subscribe: ['PHONE'] });
    await api.put(grantPath(t, 'carl'), t.asOwner, { level: 'read', expiresAt: inSeconds(3600) });
    const expiryId = (await expiryRow(t, 'carl'))!.expiry_id!;
    const early = await expireGrant(ctx.db.db, { tenantId: t.id, userId: 'carl', code: 'PHONE', expiryId });
    expect(early.outcome).toBe('not-yet');
    expect(early.outcome === 'not-yet' && early.remainingMs).toBeGreaterThan(3_500_000);
    expect((await api.del(grantPath(t, 'carl'), t.asOwner)).status).toBe(204);
    expect(await (await timerOf(t, expiryId)).result()).toBe('superseded');
    expect(await revokes(t, 'carl')).toMatchObject([{ actor: t.owner, detail: { level: 'read' } }]);
  });

  it('races between a manual revoke and the expiry, in a loop: one revoke audit row per grant, never an error', async () => {
    const t = await seedTenant(ctx, { members: ['dora'], subscribe: ['PHONE'] });
    for (let round = 0; round < 10; round++) {
      const put = await api.put(grantPath(t, 'dora'), t.asOwner, { level: 'read', expiresAt: inSeconds(3600) });
      expect(put.status, put.text).toBe(200);
      const expiryId = (await expiryRow(t, 'dora'))!.expiry_id!;
      // The end passes now (as if the hour were over); the owner revokes at the same moment.
      await ctx.db.sql`update capability_grants set expires_at = now() - interval '1 second' where tenant_id = ${t.id} and user_id = 'dora'`;
      const before = (await revokes(t, 'dora')).length;
      const [manual, expiry] = await Promise.all([
        api.del(grantPath(t, 'dora'), t.asOwner),
        expireGrant(ctx.db.db, { tenantId: t.id, userId: 'dora', code: 'PHONE', expiryId }),
      ]);
      expect([204, 404], manual.text).toContain(manual.status);
      expect(['revoked', 'superseded']).toContain(expiry.outcome);
      expect((manual.status === 204 ? 1 : 0) + (expiry.outcome === 'revoked' ? 1 : 0)).toBe(1);
      if (manual.status === 404) expectProblem(manual, 404, 'grant-not-found');
      expect((await revokes(t, 'dora')).length - before).toBe(1);
      expect(await grantsOf(t, 'dora')).toEqual([]);
    }
  });

  it('an approval sets the end: expiresAt from the approver, else durationDays from the request, else none', async () => {
    const t = await seedTenant(ctx, { members: ['erin', 'finn', 'gus'], subscribe: ['PHONE'] });
    const submit = async (user: string, body: Record<string, unknown>) => {
      const r = await api.post('/api/access-requests', t.as(user), { capabilityCode: 'PHONE', requestedLevel: 'read', ...body });
      expect(r.status, r.text).toBe(201);
      return r.json as { id: string; requestedDurationDays: number | null };
    };
    const approve = (id: string, body?: unknown) => api.post(`/api/org/access-requests/${id}/approve`, t.asOwner, body);

    const byApprover = await submit('erin', { durationDays: 7 });
    expect(byApprover.requestedDurationDays).toBe(7);
    const end = inSeconds(86_400);
    expect((await approve(byApprover.id, { expiresAt: end })).status).toBe(200);
    expect((await grantsOf(t, 'erin'))[0]!.expiresAt).toBe(end);

    const byDuration = await submit('finn', { durationDays: 7 });
    const before = Date.now();
    expect((await approve(byDuration.id)).status).toBe(200);
    const finnEnd = Date.parse((await grantsOf(t, 'finn'))[0]!.expiresAt!);
    expect(finnEnd).toBeGreaterThanOrEqual(before + 7 * 86_400_000);
    expect(finnEnd).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000);

    const plain = await submit('gus', {});
    expect((await approve(plain.id, { level: 'read-write' })).status).toBe(200);
    expect(await grantsOf(t, 'gus')).toMatchObject([{ expiresAt: null }]);
    const audit = await ctx.db.sql<{ detail: Record<string, unknown> }[]>`
      select detail from access_audit where tenant_id = ${t.id} and action = 'request.approve' and subject_user_id = 'erin'`;
    expect(audit[0]!.detail).toMatchObject({ expiresAt: end });
  });

  it('400 for an end not in the future or malformed, for a duration outside 1..3650; a grant past its end gives no access before its timer runs', async () => {
    const t = await seedTenant(ctx, { members: ['hal'], subscribe: ['PHONE'] });
    for (const expiresAt of [new Date(Date.now() - 1000).toISOString(), 'tomorrow', '2030-01-01T00:00:00']) {
      const r = await api.put(grantPath(t, 'hal'), t.asOwner, { level: 'read', expiresAt });
      expectProblem(r, 400, 'validation-failed');
      expect(r.json.errors[0].path).toBe('json.expiresAt');
    }
    for (const durationDays of [0, 3651, 1.5]) {
      expectProblem(await api.post('/api/access-requests', t.as('hal'), { capabilityCode: 'PHONE', requestedLevel: 'read', durationDays }), 400, 'validation-failed');
    }
    const req = await api.post('/api/access-requests', t.as('hal'), { capabilityCode: 'PHONE', requestedLevel: 'read' });
    expectProblem(await api.post(`/api/org/access-requests/${req.json.id}/approve`, t.asOwner, { expiresAt: new Date(Date.now() - 1000).toISOString() }), 400, 'validation-failed');
    expect((await api.get('/api/org/access-requests', t.asOwner)).json.map((r: { id: string }) => r.id)).toContain(req.json.id);

    await api.put(grantPath(t, 'hal'), t.asOwner, { level: 'read', expiresAt: inSeconds(3600) });
    expect((await api.get('/api/my-capabilities', t.as('hal'))).json).toEqual({ PHONE: 'read' });
    await ctx.db.sql`update capability_grants set expires_at = now() - interval '1 second' where tenant_id = ${t.id} and user_id = 'hal'`;
    await ctx.db.sql`select pg_notify('access_changed', ${t.id})`;
    await eventually(async () => (await api.get('/api/my-capabilities', t.as('hal'))).json, (caps) => Object.keys(caps).length === 0);
  });
});
