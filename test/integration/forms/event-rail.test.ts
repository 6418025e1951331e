// The forms event rail (docs/forms.md "Event rail"): the form_instances triggers write one QUEUED
// event per lifecycle change on every code path; the correlator turns each into outbox rows
// (subscribed workflow starts, the waiting workflow's signal) and marks it SENT, SKIPPED or FAILED.
// Real PostgreSQL and the real Temporal server.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowIdFor } from '../../../db/outbox';
import { formEventOutbox } from '../../../db/schema/form-events';
import { outbox } from '../../../db/schema/outbox';
import { FormEventCorrelator } from '../../../workers/form-event-correlator';
import { client, useTestApp } from '../../support/app';
import { startFormRail } from '../../support/form-rail';
import { seedFormsTenant } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';

describe('forms event rail', () => {
  const ctx = useTestApp({ 'forms.embed-key': EMBED_KEY, 'forms.submission-pdf': false, 'forms.event-rail.max-attempts': 2, 'forms.event-rail.backoff-ms': 1 });
  let rail: Awaited<ReturnType<typeof startFormRail>>;
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let form: { def: { id: string; code: string }; token: string };

  beforeAll(async () => {
    rail = await startFormRail(ctx);
    t = await seedFormsTenant(ctx);
    form = await publishedForm(ctx, t.asOwner, { submissionHandling: 'store' });
  });
  afterAll(async () => {
    await rail?.stop();
  });

  const api = () => client(ctx);
  const eventRows = (instanceId: string) =>
    ctx.db.db.select().from(formEventOutbox).where(eq(formEventOutbox.instanceId, instanceId)).orderBy(formEventOutbox.seq);
  const createInstance = async (context: Record<string, unknown> = {}) => {
    const r = await api().post('/api/form-instances', t.asOwner, { definitionId: form.def.id, context });
    expect(r.status, r.text).toBe(201);
    return r.json as { id: string; version: number };
  };
  /** Delivers everything, lets the instance's intake end, and delivers what it caused. */
  const settle = async (instanceId: string) => {
    await rail.drain();
    await rail.client.workflow.getHandle(workflowIdFor('FORMS', t.id, instanceId)).result();
    await rail.drain();
  };
  const waitForDue = async () => ctx.db.db.execute(sql`update form_event_outbox set next_attempt_at = now() where state = 'QUEUED'`);

  it('every lifecycle change writes one QUEUED event in its transaction, whatever path made it; a save without a state change writes none', async () => {
    const inst = await createInstance();
    const saved = await api().call('PATCH', `/api/form-instances/${inst.id}`, t.asOwner, { data: { name: 'x' }, version: inst.version });
    expect(saved.status, saved.text).toBe(200);
    expect(await api().post(`/api/form-instances/${inst.id}/cancel`, t.asOwner).then((r) => r.status)).toBe(200);
    // A path the rail knows nothing about (a sweep, another helper's route) is covered by the trigger.
    await ctx.db.db.execute(sql`update form_instances set state = 'EXPIRED' where id = ${inst.id}`);
    await ctx.db.db.execute(sql`update form_instances set state = 'EXPIRED', data = '{}' where id = ${inst.id}`);
    const rows = await eventRows(inst.id);
    expect(rows.map((r) => [r.eventType, r.state])).toEqual([
      ['draft', 'QUEUED'],
      ['cancelled', 'QUEUED'],
      ['expired', 'QUEUED'],
    ]);
    expect(rows[1]!.payloadJson).toMatchObject({ instanceId: inst.id, formCode: form.def.code, definitionVersion: 1, state: 'CANCELLED', previousState: 'DRAFT' });
    expect(Object.keys(rows[1]!.payloadJson).sort()).toEqual(['at', 'definitionVersion', 'formCode', 'instanceId', 'previousState', 'state']);
    // A rolled-back change leaves no event.
    await expect(
      ctx.db.db.transaction(async (tx) => {
        await tx.execute(sql`update form_instances set state = 'DRAFT' where id = ${inst.id}`);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await eventRows(inst.id)).toHaveLength(3);
  });

  it('nobody subscribed or waiting: SKIPPED; the instance view lists its events', async () => {
    const r = await api().post(`/api/public/embed/${form.token}/submit`, null, { data: { email: 'a@example.com' } });
    expect(r.status, r.text).toBe(201);
    await rail.correlator.correlateOnce();
    const view = (await api().get(`/api/form-instances/${r.json.id}`, t.asOwner)).json;
    expect(view.events).toEqual([{ id: expect.any(String), eventType: 'submitted', state: 'SKIPPED', retryCount: 0 }]);
  });

  it('a subscription starts its workflow once per event (through the outbox), and the event is SENT', async () => {
    const sub = await api().post('/api/form-event-subscriptions', t.asOwner, { formCode: form.def.code, eventType: 'submitted', workflowType: 'formEventRecorder' });
    expect(sub.status, sub.text).toBe(201);
    const r = await api().post(`/api/public/embed/${form.token}/submit`, null, { data: { email: 'b@example.com' } });
    await settle(r.json.id);
    const [event] = await eventRows(r.json.id);
    expect(event).toMatchObject({ eventType: 'submitted', state: 'SENT', deliveries: 1 });
    const recorded = await rail.client.workflow.getHandle(workflowIdFor('FORMS', t.id, `event:${event!.id}:${sub.json.id}`)).result();
    expect(recorded).toMatchObject({ tenantId: t.id, subscriptionId: sub.json.id, event: { eventId: event!.id, instanceId: r.json.id, state: 'SUBMITTED', previousState: null } });
    // The intake moved it to PROCESSED: an event nobody subscribed to.
    expect((await eventRows(r.json.id)).map((e) => [e.eventType, e.state])).toEqual([
      ['submitted', 'SENT'],
      ['processed', 'SKIPPED'],
    ]);
    // Delivered again (a correlator died after enqueueing): the start row exists, no second start.
    await ctx.db.db.update(formEventOutbox).set({ state: 'QUEUED' }).where(eq(formEventOutbox.id, event!.id));
    await rail.drain();
    const starts = await ctx.db.db.select().from(outbox).where(and(eq(outbox.tenantId, t.id), sql`${outbox.businessKey} like ${`event:${event!.id}:%`}`));
    expect(starts).toHaveLength(1);
    expect(await api().del(`/api/form-event-subscriptions/${sub.json.id}`, t.asOwner).then((x) => x.status)).toBe(204);
  });

  it('the waiting workflow named in the context receives each event as formInstanceEvent, in order', async () => {
    const waiterId = `waiter-${Date.now()}`;
    const waiter = await rail.client.workflow.start('formEventWaiter', { taskQueue: rail.taskQueue, workflowId: waiterId, args: [{ until: 'PROCESSED' }] });
    const inst = await createInstance({ waitingWorkflowId: waiterId });
    expect((await api().post(`/api/form-instances/${inst.id}/submit`, t.asOwner, { data: { email: 'c@example.com' } })).status).toBe(200);
    await settle(inst.id);
    const events: Array<{ state: string }> = await waiter.result();
    expect(events.map((e) => e.state)).toEqual(['DRAFT', 'SUBMITTED', 'PROCESSED']);
    expect(events[1]).toMatchObject({ instanceId: inst.id, formCode: form.def.code, eventType: 'submitted' });
    expect((await eventRows(inst.id)).every((e) => e.state === 'SENT')).toBe(true);
  });

  it('deliveries that cannot be enqueued: retried, then FAILED with retryCount; the other events of the batch are delivered', async () => {
    const ok = await createInstance();
    const bad = await createInstance({ waitingWorkflowId: 'wf-refused' });
    await ctx.db.db.execute(sql.raw(`create function refuse_rail() returns trigger language plpgsql as $$
      begin if new.workflow_id = 'wf-refused' then raise exception 'outbox refuses'; end if; return new; end $$;
      create trigger refuse_rail before insert on outbox for each row execute function refuse_rail()`));
    try {
      await rail.correlator.correlateOnce();
      expect((await eventRows(bad.id))[0]).toMatchObject({ state: 'QUEUED', retryCount: 1, lastError: expect.stringContaining('outbox refuses') });
      expect((await eventRows(ok.id))[0]).toMatchObject({ state: 'SKIPPED' });
      await waitForDue();
      await rail.correlator.correlateOnce();
    } finally {
      await ctx.db.db.execute(sql.raw('drop trigger refuse_rail on outbox; drop function refuse_rail()'));
    }
    const view = (await api().get(`/api/form-instances/${bad.id}`, t.asOwner)).json;
    expect(view.events).toEqual([{ id: expect.any(String), eventType: 'draft', state: 'FAILED', retryCount: 2 }]);
  });

  it('several correlators at once: each event is delivered exactly once', async () => {
    const waiting = { waitingWorkflowId: 'wf-nobody' };
    const ids = await Promise.all(Array.from({ length: 30 }, () => createInstance(waiting)));
    const correlators = Array.from({ length: 4 }, () => FormEventCorrelator.fromSettings(ctx.db, ctx.deps.logger, ctx.settings));
    for (let round = 0; round < 5; round++) await Promise.all(correlators.map((c) => c.correlateOnce()));
    const signals = await ctx.db.db.select().from(outbox).where(and(eq(outbox.workflowId, 'wf-nobody'), eq(outbox.verb, 'signal')));
    expect(signals).toHaveLength(30);
    expect(new Set(signals.map((s) => (s.signalArgs![0] as { eventId: string }).eventId)).size).toBe(30);
    for (const { id } of ids) expect((await eventRows(id)).map((e) => e.state)).toEqual(['SENT']);
  });
});

describe('form event subscription routes', () => {
  const ctx = useTestApp();
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let other: Awaited<ReturnType<typeof seedFormsTenant>>;
  let code: string;
  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    other = await seedFormsTenant(ctx);
    code = (await publishedForm(ctx, t.asOwner)).def.code;
  });
  const BASE = '/api/form-event-subscriptions';
  const reader = () => ({ user: 'reader', tenant: t.id });

  it('create, list, delete; duplicates 409; unknown codes 404; bad input 400; reads need read, writes read-write', async () => {
    const api = client(ctx);
    const body = { formCode: code, eventType: 'submitted', workflowType: 'onSubmitted' };
    const created = await api.post(BASE, t.asOwner, body);
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ ...body, createdBy: t.owner });
    expect((await api.post(BASE, t.asOwner, body)).json).toMatchObject({ status: 409, code: 'form-event-subscription-exists' });
    expect((await api.post(BASE, t.asOwner, { ...body, formCode: 'FM-ZZZZ01JAN26' })).json).toMatchObject({ status: 404, code: 'definition-not-found' });
    for (const bad of [{ ...body, eventType: 'SUBMITTED' }, { ...body, workflowType: 'no spaces' }, { ...body, formCode: 'x' }]) {
      expect((await api.post(BASE, t.asOwner, bad)).status).toBe(400);
    }
    expect((await api.post(BASE, reader(), { ...body, eventType: 'processed' })).status).toBe(403);
    const list = await api.get(`${BASE}?formCode=${code}`, reader());
    expect(list.status).toBe(200);
    expect(list.json.items.map((s: { id: string }) => s.id)).toEqual([created.json.id]);
    expect((await api.del(`${BASE}/${created.json.id}`, reader())).status).toBe(403);
    expect((await api.del(`${BASE}/${created.json.id}`, t.asOwner)).status).toBe(204);
    expect((await api.del(`${BASE}/${created.json.id}`, t.asOwner)).json).toMatchObject({ status: 404, code: 'form-event-subscription-not-found' });
  });

  it("another tenant's subscription: 404 on delete, absent from its list; its form code is not found", async () => {
    const api = client(ctx);
    const created = await api.post(BASE, t.asOwner, { formCode: code, eventType: 'processed', workflowType: 'onProcessed' });
    expect((await api.del(`${BASE}/${created.json.id}`, other.asOwner)).json).toMatchObject({ status: 404, code: 'form-event-subscription-not-found' });
    expect((await api.get(BASE, other.asOwner)).json.items).toEqual([]);
    expect((await api.post(BASE, other.asOwner, { formCode: code, eventType: 'processed', workflowType: 'x' })).json).toMatchObject({ status: 404 });
    expect((await api.get(BASE, t.asOwner)).json.items).toHaveLength(1);
  });
});
