// The app (and with it @hono/zod-openapi's zod extension) loads before the worker's activities.
import { readCall, seedPhoneTenant, seedTrackedCall, usePhoneApp } from '../../support/phone';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPhoneActivities } from '../../../activities/phone';
import { getOutboxRow } from '../../../db/outbox';
import { placeOutboundCall } from '../../../services/phone/placement';
import { timeSkippingServerPath } from '../../../workers/embedded/temporal';
import { workflowsPath } from '../../../workers/worker-process';
import { phoneCallEndedSignal, phoneCallStateQuery, type PhoneCallProcessResult } from '../../../workflows/phone-call';

const HOUR = 3_600_000;

describe('phoneCall reconciliation (time-skipping test server)', () => {
  const ctx = usePhoneApp();
  let env: TestWorkflowEnvironment;
  let worker: Worker;
  let running: Promise<void>;
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;
  const taskQueue = `reconcile-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    env = await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: await timeSkippingServerPath() } },
    });
    worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowsPath,
      activities: createPhoneActivities({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger }),
    });
    running = worker.run();
    t = await seedPhoneTenant(ctx, { defaults: { defaultAssistantId: 'asst-r', defaultPhoneNumberId: 'pn-r' } });
  });
  afterAll(async () => {
    if (worker?.getState() === 'RUNNING') worker.shutdown();
    await running;
    await env?.teardown();
  });

  const placeRinging = async () => {
    const { call } = await placeOutboundCall(
      { db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger },
      { tenantId: t.id, initiatedBy: 'test', customerNumber: '+14155550155' },
    );
    expect(call.status).toBe('RINGING');
    return call;
  };
  const startProcess = (callId: string) =>
    env.client.workflow.start('phoneCall', { taskQueue, workflowId: `phone:${t.id}:${callId}`, args: [{ tenantId: t.id, callId }] });

  it('no PhoneCallEnded within phone.reconcile-after-ms (2 h): asks the provider and settles from its answer', async () => {
    expect(ctx.settings['phone.reconcile-after-ms']).toBe(2 * HOUR);
    const call = await placeRinging();
    ctx.standIn.setCall(call.providerCallId!, {
      status: 'ended',
      endedReason: 'customer-ended-call',
      cost: 0.42,
      artifact: { transcript: 'AI: hi', recordingUrl: 'https://rec.example/1.wav' },
      analysis: { summary: 'Short call.' },
    });
    const before = await env.currentTimeMs();
    const handle = await startProcess(call.id);
    const result: PhoneCallProcessResult = await handle.result();
    expect(result).toEqual({ callId: call.id, status: 'ENDED', settledBy: 'reconciliation', reconcileAttempts: 1 });
    expect((await env.currentTimeMs()) - before).toBeGreaterThanOrEqual(2 * HOUR);
    const row = (await readCall(ctx, call.id))!;
    expect(row).toMatchObject({
      status: 'ENDED',
      endedReason: 'customer-ended-call',
      cost: 0.42,
      transcript: 'AI: hi',
      recordingUrl: 'https://rec.example/1.wav',
      summary: 'Short call.',
      endSource: 'reconciliation',
      processStatus: 'CLOSED',
    });
    expect(await getOutboxRow(ctx.db.db, 'PHONE', t.id, call.id)).toMatchObject({ state: 'CLOSED' });
    expect(ctx.logs.text()).toContain('reconciliation settled the call');
  });

  it('a provider that fails, then reports the call running, is asked again after phone.reconcile-retry-ms; bounded and logged', async () => {
    const call = await placeRinging();
    ctx.standIn.setCall(call.providerCallId!, { status: 'ended', endedReason: 'pipeline-error-openai-llm-failed' });
    ctx.standIn.failNext('GET /call/:id', { status: 503 });
    ctx.standIn.failNext('GET /call/:id', { status: 200, body: { id: call.providerCallId, status: 'in-progress' } });
    const before = await env.currentTimeMs();
    const result = await (await startProcess(call.id)).result();
    expect(result).toMatchObject({ status: 'FAILED', settledBy: 'reconciliation', reconcileAttempts: 3 });
    expect((await env.currentTimeMs()) - before).toBeGreaterThanOrEqual(2 * HOUR + 2 * ctx.settings['phone.reconcile-retry-ms']);
    expect(await readCall(ctx, call.id)).toMatchObject({ status: 'FAILED', endedReason: 'pipeline-error-openai-llm-failed' });
    expect(ctx.logs.text()).toContain('reconciliation: provider could not be asked; will try again');
    expect(ctx.logs.text()).toContain('reconciliation: call still running');
  });

  it('a call the provider does not know is FAILED with an errorMessage', async () => {
    const seeded = await seedTrackedCall(ctx, t.id, 'IN_PROGRESS');
    const result = await (await startProcess(seeded.id)).result();
    expect(result).toMatchObject({ status: 'FAILED', settledBy: 'reconciliation', reconcileAttempts: 1 });
    expect(await readCall(ctx, seeded.id)).toMatchObject({ status: 'FAILED', errorMessage: 'The provider has no record of this call' });
  });

  it('a call left QUEUED without a provider id (placement interrupted) is FAILED', async () => {
    const seeded = await seedTrackedCall(ctx, t.id, 'QUEUED');
    await ctx.db.sql`update phone_calls set provider_call_id = null where id = ${seeded.id}`;
    const result = await (await startProcess(seeded.id)).result();
    expect(result).toMatchObject({ status: 'FAILED', settledBy: 'reconciliation' });
    expect((await readCall(ctx, seeded.id))!.errorMessage).toContain('interrupted');
  });

  it('after phone.reconcile-max-attempts it stops asking and only waits for PhoneCallEnded', async () => {
    const call = await placeRinging();
    ctx.standIn.setCall(call.providerCallId!, { status: 'in-progress' });
    const max = ctx.settings['phone.reconcile-max-attempts'];
    const asked = () => ctx.standIn.requests.filter((q) => q.route === 'GET /call/:id' && q.path.endsWith(call.providerCallId!)).length;
    const handle = await startProcess(call.id);
    // Far beyond every attempt's timer: 2 h + (max - 1) × retry, and then some days.
    await env.sleep(2 * HOUR + max * ctx.settings['phone.reconcile-retry-ms'] + 72 * HOUR);
    const state = await handle.query(phoneCallStateQuery);
    expect(state).toMatchObject({ phase: 'waiting-for-signal', reconcileAttempts: max });
    expect(asked()).toBe(max);
    expect((await readCall(ctx, call.id))!.status).toBe('IN_PROGRESS');
    await handle.signal(phoneCallEndedSignal, { callId: call.id, status: 'ENDED', endedReason: 'customer-ended-call' });
    expect(await handle.result()).toMatchObject({ status: 'ENDED', settledBy: 'signal', reconcileAttempts: max });
    expect(asked()).toBe(max);
  });

  it('a signal before the timer settles the call without asking the provider', async () => {
    const call = await placeRinging();
    const asked = ctx.standIn.requests.length;
    const handle = await startProcess(call.id);
    await handle.signal(phoneCallEndedSignal, { callId: call.id, status: 'ENDED', endedReason: null });
    expect(await handle.result()).toMatchObject({ settledBy: 'signal', reconcileAttempts: 0 });
    expect(ctx.standIn.requests.length).toBe(asked);
  });
});
