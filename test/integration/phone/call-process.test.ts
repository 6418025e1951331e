import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPhoneActivities } from '../../../activities/phone';
import { getOutboxRow, workflowIdFor } from '../../../db/outbox';
import { OutboxDispatcher, temporalSignaller, temporalStarter } from '../../../workers/dispatcher';
import { TenantIdKey } from '../../../workflows/search-attributes';
import { phoneCallStateQuery, type PhoneCallProcessResult } from '../../../workflows/phone-call';
import { assistantRequest, endOfCallReport, statusUpdate } from '../../stand-ins/vapi/messages';
import { client } from '../../support/app';
import { postWebhook, provisionNumber, readCall, seedPhoneTenant, usePhoneApp } from '../../support/phone';
import { startTestWorker, type TestWorker } from '../../support/temporal';

const CUSTOMER = '+14155550177';

async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 120_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('phoneCall process on the real Temporal server', () => {
  const ctx = usePhoneApp();
  const api = client(ctx);
  let worker: TestWorker;
  let dispatcher: OutboxDispatcher;
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;
  let numberId: string;

  beforeAll(async () => {
    worker = await startTestWorker(createPhoneActivities({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger }));
    dispatcher = new OutboxDispatcher({
      database: ctx.db,
      logger: ctx.deps.logger,
      startWorkflow: temporalStarter(worker.client, worker.taskQueue),
      signals: temporalSignaller(worker.client, worker.taskQueue),
      capabilities: ['PHONE'],
      pollMs: 60_000,
      batchSize: 50,
      maxAttempts: 3,
      backoffMs: 100,
    });
    t = await seedPhoneTenant(ctx);
    numberId = (await provisionNumber(ctx, t.writer, 'asst-inbound')).providerNumberId;
    await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'asst-1', defaultPhoneNumberId: numberId });
  });
  afterAll(async () => {
    await worker?.stop();
  });

  const handleFor = (callId: string) => worker.client.workflow.getHandle(workflowIdFor('PHONE', t.id, callId));
  const place = async () => {
    const r = await api.post('/api/phone-calls', t.writer, { customerNumber: CUSTOMER });
    expect(r.status, r.text).toBe(201);
    return r.json as { id: string; providerCallId: string; status: string };
  };
  const waitingProcess = async (callId: string) => {
    await dispatcher.dispatchOnce();
    const handle = handleFor(callId);
    await waitFor(async () => (await handle.query(phoneCallStateQuery)).phase === 'waiting', 'the process to park');
    return handle;
  };

  it('the dispatcher starts one phoneCall per call (id from the business key, search attributes), outbox STARTED', async () => {
    const call = await place();
    const handle = await waitingProcess(call.id);
    const described = await handle.describe();
    expect(described.type).toBe('phoneCall');
    expect(described.typedSearchAttributes.get(TenantIdKey)).toBe(t.id);
    const outbox = await getOutboxRow(ctx.db.db, 'PHONE', t.id, call.id);
    expect(outbox).toMatchObject({ state: 'STARTED', processInstanceId: described.runId });
    expect(await readCall(ctx, call.id)).toMatchObject({ processStatus: 'ACTIVE', processInstanceId: described.runId });
    // A second dispatch of the same business key is a no-op, not a second process.
    await ctx.db.sql`update outbox set state = 'QUEUED' where business_key = ${call.id}`;
    await dispatcher.dispatchOnce();
    expect((await handleFor(call.id).describe()).runId).toBe(described.runId);
    await handle.signal('PhoneCallEnded', { callId: call.id, status: 'ENDED', endedReason: null });
    await handle.result();
  });

  it('end-of-call-report webhook signals PhoneCallEnded; the process records the outcome (processStatus CLOSED, outbox CLOSED)', async () => {
    const call = await place();
    const handle = await waitingProcess(call.id);
    const r = await postWebhook(ctx, endOfCallReport({ callId: call.providerCallId, endedReason: 'customer-ended-call', transcript: 'bye' }));
    expect(r.status).toBe(200);
    await dispatcher.dispatchOnce(); // the PhoneCallEnded row written with the report
    const result: PhoneCallProcessResult = await handle.result();
    expect(result).toMatchObject({ callId: call.id, status: 'ENDED', settledBy: 'signal', reconcileAttempts: 0 });
    expect(await readCall(ctx, call.id)).toMatchObject({ status: 'ENDED', processStatus: 'CLOSED', transcript: 'bye' });
    expect(await getOutboxRow(ctx.db.db, 'PHONE', t.id, call.id)).toMatchObject({ state: 'CLOSED' });
    // A redelivered report after the process closed is still a 200; the failed signal is only logged.
    expect((await postWebhook(ctx, endOfCallReport({ callId: call.providerCallId, endedReason: 'customer-ended-call' }))).status).toBe(200);
  });

  it('a terminal status-update (ended with a fault) also closes the process, as FAILED', async () => {
    const call = await place();
    const handle = await waitingProcess(call.id);
    await postWebhook(ctx, statusUpdate({ callId: call.providerCallId, status: 'ended', endedReason: 'call.start.error-get-org' }));
    await dispatcher.dispatchOnce();
    expect(await handle.result()).toMatchObject({ status: 'FAILED', settledBy: 'signal' });
    expect(await readCall(ctx, call.id)).toMatchObject({ status: 'FAILED', processStatus: 'CLOSED' });
  });

  it('early end: a call that ends before its process starts is settled by the state check at start', async () => {
    const call = await place();
    const r = await postWebhook(ctx, endOfCallReport({ callId: call.providerCallId, endedReason: 'customer-busy' }));
    expect(r.status).toBe(200);
    // The PhoneCallEnded row waits behind the process's own start row (commit order per workflow).
    expect(await getOutboxRow(ctx.db.db, 'PHONE', t.id, call.id)).toMatchObject({ state: 'QUEUED' });
    const [signalRow] = await ctx.db.sql`select state, seq from outbox where business_key = ${call.id} and verb = 'signal'`;
    expect(signalRow).toMatchObject({ state: 'QUEUED' });
    await dispatcher.dispatchOnce();
    expect(await handleFor(call.id).result()).toMatchObject({ status: 'ENDED', settledBy: 'already-terminal' });
    expect(await readCall(ctx, call.id)).toMatchObject({ processStatus: 'CLOSED' });
    expect(await getOutboxRow(ctx.db.db, 'PHONE', t.id, call.id)).toMatchObject({ state: 'CLOSED' });
  });

  it('a call FAILED at placement (provider error) still gets its process, which closes at once', async () => {
    ctx.standIn.failNext('POST /call', { status: 500 });
    const call = await place();
    expect(call.status).toBe('FAILED');
    await dispatcher.dispatchOnce();
    expect(await handleFor(call.id).result()).toMatchObject({ status: 'FAILED', settledBy: 'already-terminal' });
    expect(await getOutboxRow(ctx.db.db, 'PHONE', t.id, call.id)).toMatchObject({ state: 'CLOSED' });
  });

  it('an inbound call (assistant-request) gets its process too, closed by the end of the call', async () => {
    await postWebhook(ctx, assistantRequest({ callId: 'in-process-1', phoneNumberId: numberId, customerNumber: CUSTOMER }));
    const [row] = await ctx.db.sql`select id from phone_calls where provider_call_id = 'in-process-1'`;
    const handle = await waitingProcess(row!.id as string);
    await postWebhook(ctx, statusUpdate({ callId: 'in-process-1', status: 'in-progress' }));
    await postWebhook(ctx, endOfCallReport({ callId: 'in-process-1', endedReason: 'assistant-ended-call' }));
    await dispatcher.dispatchOnce();
    expect(await handle.result()).toMatchObject({ status: 'ENDED', settledBy: 'signal' });
  });

  describe('the phone workflow action', () => {
    const node = {
      capability: 'phone',
      type: 'call',
      inputs: {
        to: '${customer.phone}',
        assistantId: '${assistant}',
        variableValues: { greeting: 'Hello ${customer.name}', order: '${order}' },
        metadata: { source: 'order-flow' },
      },
    };
    const variables = { customer: { phone: CUSTOMER, name: 'Grace' }, assistant: 'asst-action', order: { id: 'o-9', total: 12 } };
    const run = (input: object, extra: object = {}) =>
      worker.client.workflow.execute('phoneAction', {
        taskQueue: worker.taskQueue,
        workflowId: `action-${Math.random().toString(36).slice(2)}`,
        args: [input],
        ...extra,
      });

    it('places a call from a workflow with ${name} placeholders resolved from its variables (initiator workflow:<id>)', async () => {
      const asked = ctx.standIn.requests.length;
      const placed = await run({ tenantId: t.id, node, variables });
      expect(placed).toMatchObject({ status: 'RINGING', customerNumber: CUSTOMER, assistantId: 'asst-action', phoneNumberId: numberId });
      const row = (await readCall(ctx, placed.id))!;
      expect(row.initiatedBy).toMatch(/^workflow:action-/);
      expect(row.variableValues).toEqual({ greeting: 'Hello Grace', order: { id: 'o-9', total: 12 } });
      const sent = ctx.standIn.requests.slice(asked).find((q) => q.route === 'POST /call')!;
      expect((sent.body as { assistantOverrides: unknown }).assistantOverrides).toEqual({
        variableValues: { greeting: 'Hello Grace', order: { id: 'o-9', total: 12 } },
        metadata: { source: 'order-flow', platformCallId: placed.id },
      });
      expect(await getOutboxRow(ctx.db.db, 'PHONE', t.id, placed.id)).toMatchObject({ state: 'QUEUED' });
    });

    it('node type `phone` works too, and the tenant defaults to the TenantId search attribute', async () => {
      const placed = await run(
        { node: { ...node, type: 'phone' }, variables },
        { typedSearchAttributes: [{ key: TenantIdKey, value: t.id }] },
      );
      expect(placed.status).toBe('RINGING');
      expect((await readCall(ctx, placed.id))!.tenantId).toBe(t.id);
    });

    it('a provider failure comes back as a FAILED call, not a workflow failure', async () => {
      ctx.standIn.failNext('POST /call', { status: 402, body: { message: 'Wallet balance too low', statusCode: 402 } });
      const placed = await run({ tenantId: t.id, node, variables });
      expect(placed).toMatchObject({ status: 'FAILED', errorMessage: expect.stringContaining('Wallet balance too low') });
    });

    it('a number on the do-not-call list fails the caller with a non-retryable number-on-do-not-call naming the REFUSED call; the provider is not asked', async () => {
      const listed = '+14155550178';
      expect((await api.put(`/api/phone/do-not-call/${encodeURIComponent(listed)}`, t.writer)).status).toBe(201);
      const asked = ctx.standIn.requests.length;
      const failure = await run({ tenantId: t.id, node: { ...node, inputs: { ...node.inputs, to: listed } }, variables }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(WorkflowFailedError);
      let cause: unknown = (failure as WorkflowFailedError).cause;
      while (cause instanceof Error && !(cause instanceof ApplicationFailure)) cause = cause.cause;
      expect(cause).toBeInstanceOf(ApplicationFailure);
      expect(cause).toMatchObject({ type: 'number-on-do-not-call', nonRetryable: true });
      const { callId } = (cause as ApplicationFailure).details![0] as { callId: string };
      expect(await readCall(ctx, callId)).toMatchObject({ status: 'REFUSED', customerNumber: listed, initiatedBy: expect.stringMatching(/^workflow:action-/), providerCallId: null });
      expect(ctx.standIn.requests.slice(asked).filter((q) => q.route === 'POST /call')).toEqual([]);
    });

    it.each([
      ['an unresolved placeholder', { ...node, inputs: { to: '${nobody}' } }, 'PhoneActionInvalid', 'unresolved placeholder ${nobody}'],
      ['an unknown node type', { ...node, type: 'sms' }, 'PhoneActionInvalid', 'not a phone action'],
      ['a number that is not E.164', { ...node, inputs: { to: '555-0100' } }, 'invalid-customer-number', 'E.164'],
    ])('%s fails the caller with a non-retryable %s, saving nothing', async (_what, badNode, type, message) => {
      const before = (await ctx.db.sql`select count(*)::int as n from phone_calls`)[0]!.n;
      const failure = await run({ tenantId: t.id, node: badNode, variables }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(WorkflowFailedError);
      let cause: unknown = (failure as WorkflowFailedError).cause;
      while (cause instanceof Error && !(cause instanceof ApplicationFailure)) cause = cause.cause;
      expect(cause).toBeInstanceOf(ApplicationFailure);
      expect((cause as ApplicationFailure).type).toBe(type);
      expect((cause as ApplicationFailure).message).toContain(message);
      expect((await ctx.db.sql`select count(*)::int as n from phone_calls`)[0]!.n).toBe(before);
    });
  });
});
