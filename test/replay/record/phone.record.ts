// Records the phone processes for the replay corpus against the provider stand-in: a call placed
// over the API and ended by the end-of-call webhook, one the provider never reports on that the
// process settles by reconciliation, the phone workflow action placing a call, a call SCHEDULED for
// its calling window and placed when it opens, and a call redialled twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPhoneActivities } from '../../../activities/phone';
import { workflowIdFor } from '../../../db/outbox';
import { phoneCallStateQuery } from '../../../workflows/phone-call';
import { endOfCallReport } from '../../stand-ins/vapi/messages';
import { client } from '../../support/app';
import { eventually } from '../../support/ceremony';
import { createCallingCalendar, postWebhook, provisionNumber, readCall, seedPhoneTenant, usePhoneApp } from '../../support/phone';
import { startTestWorker, testDispatcher, type TestWorker } from '../../support/temporal';
import { saveHistory } from './save-history';

const CUSTOMER = '+14155550177';

/** A phone app, its worker and dispatcher, a tenant with a number and defaults. */
function usePhoneWorld(reconcileAfterMs: number) {
  const ctx = usePhoneApp({ 'phone.reconcile-after-ms': reconcileAfterMs, 'phone.reconcile-retry-ms': 1_000 });
  const world = {} as { worker: TestWorker; dispatcher: ReturnType<typeof testDispatcher>; t: Awaited<ReturnType<typeof seedPhoneTenant>>; numberId: string };
  beforeAll(async () => {
    world.worker = await startTestWorker(createPhoneActivities({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger }));
    world.dispatcher = testDispatcher(ctx, world.worker, ['PHONE']);
    world.t = await seedPhoneTenant(ctx);
    world.numberId = (await provisionNumber(ctx, world.t.writer, 'asst-inbound')).providerNumberId;
    await client(ctx).put('/api/phone-settings', world.t.writer, { defaultAssistantId: 'asst-1', defaultPhoneNumberId: world.numberId });
  });
  afterAll(async () => {
    await world.worker?.stop();
  });
  const place = async () => {
    const r = await client(ctx).post('/api/phone-calls', world.t.writer, { customerNumber: CUSTOMER });
    expect(r.status, r.text).toBe(201);
    await world.dispatcher.dispatchOnce();
    return { call: r.json as { id: string; providerCallId: string }, workflowId: workflowIdFor('PHONE', world.t.id, r.json.id) };
  };
  return { ctx, world, place };
}

describe('record: phoneCall ended by the webhook', () => {
  // The default wait (2 h) before reconciling: the webhook comes first.
  const { ctx, world, place } = usePhoneWorld(7_200_000);

  it('the end-of-call report signals the waiting process', async () => {
    const { call, workflowId } = await place();
    const handle = world.worker.client.workflow.getHandle(workflowId);
    await eventually(() => handle.query(phoneCallStateQuery).catch(() => null), (s) => s?.phase === 'waiting');
    expect((await postWebhook(ctx, endOfCallReport({ callId: call.providerCallId, endedReason: 'customer-ended-call', transcript: 'bye' }))).status).toBe(200);
    await world.dispatcher.dispatchOnce();
    expect(await handle.result()).toMatchObject({ status: 'ENDED', settledBy: 'signal' });
    await saveHistory(world.worker.client, { workflowId }, 'ended-by-webhook');
  });

  it('the phone workflow action places a call', async () => {
    const workflowId = `action-${Date.now().toString(36)}`;
    const placed = await world.worker.client.workflow.execute('phoneAction', {
      taskQueue: world.worker.taskQueue,
      workflowId,
      args: [{ tenantId: world.t.id, node: { capability: 'phone', type: 'call', inputs: { to: '${phone}', assistantId: 'asst-action' } }, variables: { phone: CUSTOMER } }],
    });
    expect(placed).toMatchObject({ status: 'RINGING' });
    await saveHistory(world.worker.client, { workflowId }, 'placed');
  });
});

describe('record: phoneCall ended by reconciliation', () => {
  // 1 s without PhoneCallEnded: the process asks the provider (first "still ringing", then ended).
  const { ctx, world, place } = usePhoneWorld(1_000);

  it('the provider reports the call ended on the second look-up', async () => {
    const { call, workflowId } = await place();
    const handle = world.worker.client.workflow.getHandle(workflowId);
    await eventually(() => handle.query(phoneCallStateQuery).catch(() => null), (s) => (s?.reconcileAttempts ?? 0) >= 1);
    ctx.standIn.setCall(call.providerCallId, { status: 'ended', endedReason: 'customer-ended-call', artifact: { transcript: 'AI: hi' } });
    expect(await handle.result()).toMatchObject({ status: 'ENDED', settledBy: 'reconciliation' });
    await saveHistory(world.worker.client, { workflowId }, 'ended-by-reconciliation');
  });
});

describe('record: phoneCall scheduled for its calling window, and redialled', () => {
  const { ctx, world } = usePhoneWorld(7_200_000);
  const api = client(ctx);

  it('a call asked for outside its window waits SCHEDULED and is placed when the window opens', async () => {
    const opensAt = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 2 * 60_000);
    await createCallingCalendar(ctx, world.t, { code: 'CALLS', key: 'outbound-calls', opensAt });
    expect((await api.put('/api/phone/assistants/asst-windowed/calling-policy', world.t.writer, { callingCalendarKey: 'outbound-calls' })).status).toBe(200);
    const r = await api.post('/api/phone-calls', world.t.writer, { customerNumber: CUSTOMER, assistantId: 'asst-windowed' });
    expect(r.status, r.text).toBe(202);
    const dispatcher = testDispatcher(ctx, world.worker, ['PHONE']);
    await dispatcher.start();
    try {
      const placed = await eventually(() => readCall(ctx, r.json.id), (c) => c?.status === 'RINGING', 200_000);
      await postWebhook(ctx, endOfCallReport({ callId: placed!.providerCallId!, endedReason: 'customer-ended-call' }));
      const workflowId = workflowIdFor('PHONE', world.t.id, r.json.id);
      expect(await world.worker.client.workflow.getHandle(workflowId).result()).toMatchObject({ status: 'ENDED', settledBy: 'signal' });
      await saveHistory(world.worker.client, { workflowId }, 'scheduled-then-placed');
    } finally {
      await dispatcher.stop();
    }
  }, 240_000);

  it('no answer, then busy, then answered: three attempts in one process', async () => {
    const r = await api.post('/api/phone-calls', world.t.writer, { customerNumber: CUSTOMER, redial: { maxAttempts: 3, backoffMinutes: 0, on: ['no-answer', 'busy'] } });
    expect(r.status, r.text).toBe(201);
    const dispatcher = testDispatcher(ctx, world.worker, ['PHONE']);
    await dispatcher.start();
    try {
      const workflowId = workflowIdFor('PHONE', world.t.id, r.json.id);
      const handle = world.worker.client.workflow.getHandle(workflowId);
      await eventually(() => handle.query(phoneCallStateQuery).catch(() => null), (s) => s?.phase === 'waiting');
      const ringing = (attempt: number) =>
        eventually(
          () => ctx.db.sql`select provider_call_id, status from phone_calls where business_key = ${r.json.id} and attempt = ${attempt}`,
          (rows) => rows[0]?.status === 'RINGING',
        ).then((rows) => rows[0]!.provider_call_id as string);
      await postWebhook(ctx, endOfCallReport({ callId: r.json.providerCallId, endedReason: 'customer-did-not-answer' }));
      await postWebhook(ctx, endOfCallReport({ callId: await ringing(2), endedReason: 'customer-busy' }));
      await postWebhook(ctx, endOfCallReport({ callId: await ringing(3), endedReason: 'customer-ended-call' }));
      expect(await handle.result()).toMatchObject({ status: 'ENDED', attempts: 3 });
      await saveHistory(world.worker.client, { workflowId }, 'redialed');
    } finally {
      await dispatcher.stop();
    }
  }, 120_000);
});
