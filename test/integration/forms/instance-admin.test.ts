// Instance operations (docs/forms.md "Instance operations"): retry-process, PUT state and
// mark-processed, with tenant isolation, guards and parallel races. Real PostgreSQL and Temporal.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getOutboxRow, workflowIdFor } from '../../../db/outbox';
import { formEventOutbox } from '../../../db/schema/form-events';
import { outbox } from '../../../db/schema/outbox';
import { client, useTestApp } from '../../support/app';
import { startFormRail } from '../../support/form-rail';
import { seedFormsTenant } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';

describe('form instance operations', () => {
  const ctx = useTestApp({ 'forms.embed-key': EMBED_KEY, 'forms.submission-pdf': false });
  let rail: Awaited<ReturnType<typeof startFormRail>>;
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let other: Awaited<ReturnType<typeof seedFormsTenant>>;
  let store: { def: { id: string; code: string }; token: string };

  beforeAll(async () => {
    rail = await startFormRail(ctx);
    t = await seedFormsTenant(ctx);
    other = await seedFormsTenant(ctx);
    store = await publishedForm(ctx, t.asOwner, { submissionHandling: 'store' });
  });
  afterAll(async () => {
    await rail?.stop();
  });

  const api = () => client(ctx);
  const path = (id: string, op: string) => `/api/form-instances/${id}/${op}`;
  const draft = async () => (await api().post('/api/form-instances', t.asOwner, { definitionId: store.def.id })).json as { id: string };
  const embedSubmit = async (token = store.token) => {
    const r = await api().post(`/api/public/embed/${token}/submit`, null, { data: { email: 'a@example.com' } });
    expect(r.status, r.text).toBe(201);
    return r.json.id as string;
  };
  const intakeResult = (id: string, workflowId = workflowIdFor('FORMS', t.id, id)) => rail.client.workflow.getHandle(workflowId).result();
  const eventTypes = async (id: string) =>
    (await ctx.db.db.select().from(formEventOutbox).where(eq(formEventOutbox.instanceId, id)).orderBy(formEventOutbox.seq)).map((e) => e.eventType);

  describe('POST /{id}/retry-process', () => {
    it('an intake that recorded a failure runs again under a fresh workflow id and ends PROCESSED', async () => {
      const broken = await publishedForm(ctx, t.asOwner, { submissionHandling: 'carrier-pigeon' });
      const id = await embedSubmit(broken.token);
      await rail.dispatcher.dispatchOnce();
      expect(await intakeResult(id)).toMatchObject({ outcome: 'failed' });
      // The operator fixes the handling, then retries.
      await ctx.db.db.execute(sql`update form_definitions set submission_handling = 'store' where id = ${broken.def.id}`);
      const r = await api().post(path(id, 'retry-process'), t.asOwner);
      expect(r.status, r.text).toBe(200);
      const retryId = `${workflowIdFor('FORMS', t.id, id)}:retry-1`;
      expect(r.json).toMatchObject({ state: 'SUBMITTED', context: { processStartStatus: 'QUEUED', processError: null, processRetries: 1 }, submissionOutbox: { outboxState: 'QUEUED', retryCount: 0 } });
      expect(await getOutboxRow(ctx.db.db, 'FORMS', t.id, id)).toMatchObject({ workflowId: retryId, state: 'QUEUED' });
      await rail.dispatcher.dispatchOnce();
      const result = await intakeResult(id, retryId);
      expect(result).toMatchObject({ outcome: 'stored' });
      const view = (await api().get(`/api/form-instances/${id}`, t.asOwner)).json;
      expect(view).toMatchObject({ state: 'PROCESSED', context: { processInstanceId: result.processInstanceId }, submissionOutbox: { status: 'PUBLISHED', outboxState: 'CLOSED' } });
      // Nothing failed any more.
      expect((await api().post(path(id, 'retry-process'), t.asOwner)).json).toMatchObject({ status: 409, code: 'process-not-retryable' });
    });

    it('a FAILED outbox row (the process never started) is QUEUED again under its own workflow id', async () => {
      const id = await embedSubmit();
      await ctx.db.db.update(outbox).set({ state: 'FAILED', retryCount: 10, lastError: 'boom' }).where(and(eq(outbox.businessKey, id), eq(outbox.verb, 'start')));
      const r = await api().post(path(id, 'retry-process'), t.asOwner);
      expect(r.status, r.text).toBe(200);
      expect(await getOutboxRow(ctx.db.db, 'FORMS', t.id, id)).toMatchObject({ state: 'QUEUED', retryCount: 0, lastError: null, workflowId: workflowIdFor('FORMS', t.id, id) });
      await rail.dispatcher.dispatchOnce();
      expect(await intakeResult(id)).toMatchObject({ outcome: 'stored' });
    });

    it('409 process-not-retryable for a DRAFT, a queued and a processed instance; 404 for another tenant; 403 for a reader', async () => {
      const d = await draft();
      expect((await api().post(path(d.id, 'retry-process'), t.asOwner)).json).toMatchObject({ status: 409, code: 'process-not-retryable' });
      const queued = await embedSubmit();
      expect((await api().post(path(queued, 'retry-process'), t.asOwner)).json).toMatchObject({ status: 409, code: 'process-not-retryable' });
      expect((await api().post(path(queued, 'retry-process'), other.asOwner)).json).toMatchObject({ status: 404, code: 'form-instance-not-found' });
      expect((await api().post(path(queued, 'retry-process'), { user: 'reader', tenant: t.id })).status).toBe(403);
      await rail.dispatcher.dispatchOnce();
      await intakeResult(queued);
      expect((await api().post(path(queued, 'retry-process'), t.asOwner)).json).toMatchObject({ status: 409, code: 'process-not-retryable' });
    });

    it('twice at once: one retry is queued, the other is 409', async () => {
      for (let round = 0; round < 5; round++) {
        const id = await embedSubmit();
        await ctx.db.db.update(outbox).set({ state: 'FAILED' }).where(and(eq(outbox.businessKey, id), eq(outbox.verb, 'start')));
        const answers = await Promise.all([0, 1, 2].map(() => api().post(path(id, 'retry-process'), t.asOwner)));
        expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
        expect((await api().get(`/api/form-instances/${id}`, t.asOwner)).json.context.processRetries).toBe(0);
      }
    });
  });

  describe('PUT /{id}/state', () => {
    const put = (id: string, state: string, who = t.asOwner) => api().put(path(id, 'state'), who, { state });

    it('the moves of the table, recorded; the same state is nothing to do; every other move 409', async () => {
      const d = await draft();
      const cancelled = await put(d.id, 'CANCELLED');
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(cancelled.json).toMatchObject({ state: 'CANCELLED', context: { stateSetBy: t.owner } });
      const again = await put(d.id, 'CANCELLED');
      expect(again.json.version).toBe(cancelled.json.version);
      expect((await put(d.id, 'DRAFT')).json.state).toBe('DRAFT');
      for (const to of ['SUBMITTED', 'PROCESSED', 'SENT', 'OPENED', 'EXPIRED']) {
        expect((await put(d.id, to)).json, to).toMatchObject({ status: 409, code: 'instance-state-conflict', state: 'DRAFT' });
      }
      // An outbound instance (SENT) may be expired by hand, and an expired one reopened as DRAFT without its expiry.
      await ctx.db.db.execute(sql`update form_instances set state = 'SENT', expires_at = now() - interval '1 day' where id = ${d.id}`);
      expect((await put(d.id, 'EXPIRED')).json.state).toBe('EXPIRED');
      expect((await put(d.id, 'DRAFT')).json).toMatchObject({ state: 'DRAFT', expiresAt: null });
      expect(await eventTypes(d.id)).toEqual(['draft', 'cancelled', 'draft', 'sent', 'expired', 'draft']);
      const submitted = await embedSubmit();
      for (const to of ['DRAFT', 'CANCELLED', 'PROCESSED']) {
        expect((await put(submitted, to)).json).toMatchObject({ status: 409, code: 'instance-state-conflict', state: 'SUBMITTED' });
      }
    });

    it('bad input 400; another tenant 404; a reader 403', async () => {
      const d = await draft();
      expect((await put(d.id, 'ARCHIVED')).status).toBe(400);
      expect((await api().put(path(d.id, 'state'), t.asOwner, {})).status).toBe(400);
      expect((await put(d.id, 'CANCELLED', other.asOwner)).json).toMatchObject({ status: 404, code: 'form-instance-not-found' });
      expect((await put(d.id, 'CANCELLED', { user: 'reader', tenant: t.id })).status).toBe(403);
    });

    it('the same move at once: one change, one event', async () => {
      for (let round = 0; round < 5; round++) {
        const d = await draft();
        const answers = await Promise.all([0, 1, 2].map(() => put(d.id, 'CANCELLED')));
        expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
        expect(await eventTypes(d.id)).toEqual(['draft', 'cancelled']);
      }
    });
  });

  describe('POST /{id}/mark-processed', () => {
    it('SUBMITTED → PROCESSED by hand, recorded; the intake that runs later finds nothing to do', async () => {
      const id = await embedSubmit();
      const r = await api().post(path(id, 'mark-processed'), t.asOwner);
      expect(r.status, r.text).toBe(200);
      expect(r.json).toMatchObject({ state: 'PROCESSED', context: { processStartStatus: 'PROCESSED', processedBy: t.owner, processedAt: expect.any(String) } });
      await rail.dispatcher.dispatchOnce();
      expect(await intakeResult(id)).toMatchObject({ outcome: 'nothing-to-do' });
      expect((await api().post(path(id, 'mark-processed'), t.asOwner)).json).toMatchObject({ status: 409, code: 'instance-state-conflict', state: 'PROCESSED' });
      expect((await api().post(path((await draft()).id, 'mark-processed'), t.asOwner)).json).toMatchObject({ status: 409, code: 'instance-state-conflict', state: 'DRAFT' });
      expect((await api().post(path(id, 'mark-processed'), other.asOwner)).json).toMatchObject({ status: 404, code: 'form-instance-not-found' });
      expect((await api().post(path(id, 'mark-processed'), { user: 'reader', tenant: t.id })).status).toBe(403);
    });

    it('twice at once: one wins, the other is 409, one processed event', async () => {
      for (let round = 0; round < 5; round++) {
        const id = await embedSubmit();
        const answers = await Promise.all([0, 1].map(() => api().post(path(id, 'mark-processed'), t.asOwner)));
        expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
        expect(await eventTypes(id)).toEqual(['submitted', 'processed']);
      }
    });
  });
});
