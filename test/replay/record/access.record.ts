// Records the access processes for the replay corpus through the API and the outbox dispatcher: a
// grant revoked by its expiry timer, one whose timer a renewal supersedes, and the access request
// expiry sweep in two batches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessExpiryActivities } from '../../../activities/access-expiry';
import { createOutboxActivities } from '../../../activities/outbox';
import { client, useTestApp } from '../../support/app';
import { seedTenant } from '../../support/fixtures';
import { startTestWorker, testDispatcher, type TestWorker } from '../../support/temporal';
import { saveHistory } from './save-history';

describe('record: grantExpiry and accessRequestExpirySweep', () => {
  const ctx = useTestApp({ 'access.request-ttl-days': 7 });
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

  const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
  const grant = async (t: { id: string; asOwner: { user: string; tenant?: string } }, user: string, body: Record<string, unknown>) => {
    const r = await api.put(`/api/tenants/${t.id}/users/${user}/capabilities/PHONE`, t.asOwner, body);
    expect(r.status, r.text).toBe(200);
    const [row] = await ctx.db.sql<{ expiry_id: string }[]>`select expiry_id from capability_grants where tenant_id = ${t.id} and user_id = ${user} and capability_code = 'PHONE'`;
    return `access:${t.id}:grant-expiry-${row!.expiry_id}`;
  };

  it('revoked by its timer', async () => {
    const t = await seedTenant(ctx, { members: ['alice'], subscribe: ['PHONE'] });
    const workflowId = await grant(t, 'alice', { level: 'read', expiresAt: inSeconds(2) });
    expect(await worker.client.workflow.getHandle(workflowId).result()).toBe('revoked');
    await saveHistory(worker.client, { workflowId }, 'revoked');
  });

  it('superseded by a renewal', async () => {
    const t = await seedTenant(ctx, { members: ['bob'], subscribe: ['PHONE'] });
    const first = await grant(t, 'bob', { level: 'read', expiresAt: inSeconds(30) });
    await grant(t, 'bob', { level: 'read-write', expiresAt: inSeconds(3600) });
    expect(await worker.client.workflow.getHandle(first).result()).toBe('superseded');
    await saveHistory(worker.client, { workflowId: first }, 'superseded');
  });

  it('the request expiry sweep, two batches', async () => {
    const t = await seedTenant(ctx, { members: ['u1', 'u2', 'u3'], subscribe: ['PHONE'] });
    for (const user of ['u1', 'u2', 'u3']) {
      const r = await api.post('/api/access-requests', { user, tenant: t.id }, { capabilityCode: 'PHONE', requestedLevel: 'read' });
      expect(r.status, r.text).toBe(201);
      await ctx.db.sql`update access_requests set created_at = now() - interval '9 days' where id = ${r.json.id}`;
    }
    const workflowId = `access:all-tenants:request-expiry-sweep-${Date.now()}`;
    const report = await worker.client.workflow.execute('accessRequestExpirySweep', { taskQueue: worker.taskQueue, workflowId, args: [{ ttlDays: 7, batchSize: 2 }] });
    expect(report).toMatchObject({ expired: 3, batches: 2 });
    await saveHistory(worker.client, { workflowId }, 'batches');
  });
});
