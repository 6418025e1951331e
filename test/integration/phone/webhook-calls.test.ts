import { beforeAll, describe, expect, it } from 'vitest';
import { getOutboxRow } from '../../../db/outbox';
import { UNKNOWN_NUMBER_SENTENCE } from '../../../domain/phone/assistant-request';
import { assistantRequest, endOfCallReport, otherMessage, statusUpdate } from '../../stand-ins/vapi/messages';
import { client } from '../../support/app';
import { postWebhook, provisionNumber, readCall, seedPhoneTenant, seedTrackedCall, usePhoneApp } from '../../support/phone';

describe('webhook: assistant-request (inbound calls)', () => {
  const ctx = usePhoneApp();
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;
  let withAssistant: { providerNumberId: string; number: string };
  let withoutAssistant: { providerNumberId: string; number: string };

  beforeAll(async () => {
    t = await seedPhoneTenant(ctx, { defaults: { defaultAssistantId: 'asst-tenant-default' } });
    withAssistant = await provisionNumber(ctx, t.writer, 'asst-front-desk');
    withoutAssistant = await provisionNumber(ctx, t.writer);
  });

  const inboundRows = async (providerCallId: string) =>
    ctx.db.sql`select * from phone_calls where provider_call_id = ${providerCallId}`;

  it("answers the dialled number's assistant and records an INBOUND RINGING call with its process", async () => {
    const body = assistantRequest({ callId: 'in-1', phoneNumberId: withAssistant.providerNumberId, dialledNumber: withAssistant.number, customerNumber: '+14155550111' });
    const r = await postWebhook(ctx, body);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ assistantId: 'asst-front-desk' });
    const [row] = await inboundRows('in-1');
    expect(row).toMatchObject({ tenant_id: t.id, direction: 'INBOUND', status: 'RINGING', assistant_id: 'asst-front-desk', customer_number: '+14155550111', initiated_by: 'provider' });
    expect(await getOutboxRow(ctx.db.db, 'PHONE', t.id, row!.id)).toMatchObject({ state: 'QUEUED', workflowType: 'phoneCall' });
  });

  it('is idempotent: a redelivered assistant-request answers the same and records nothing new', async () => {
    const body = assistantRequest({ callId: 'in-2', phoneNumberId: withAssistant.providerNumberId });
    const first = await postWebhook(ctx, body);
    const again = await postWebhook(ctx, body);
    expect(again.json).toEqual(first.json);
    expect(await inboundRows('in-2')).toHaveLength(1);
    expect(await ctx.db.sql`select 1 from outbox where business_key = ${(await inboundRows('in-2'))[0]!.id}`).toHaveLength(1);
  });

  it("uses the tenant's default assistant when the number has none, and resolves a number by its digits alone", async () => {
    const r = await postWebhook(ctx, assistantRequest({ callId: 'in-3', dialledNumber: withoutAssistant.number }));
    expect(r.json).toEqual({ assistantId: 'asst-tenant-default' });
    expect((await inboundRows('in-3'))[0]).toMatchObject({ tenant_id: t.id, phone_number_id: withoutAssistant.providerNumberId });
  });

  it('an unknown number declines with a short spoken sentence and records nothing', async () => {
    const r = await postWebhook(ctx, assistantRequest({ callId: 'in-4', phoneNumberId: 'pn-nobody', dialledNumber: '+19995550000' }));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ error: UNKNOWN_NUMBER_SENTENCE });
    expect(await inboundRows('in-4')).toHaveLength(0);
  });

  it('a tenant whose PHONE subscription is not ACTIVE, or without any assistant, declines', async () => {
    const bare = await seedPhoneTenant(ctx);
    const n = await provisionNumber(ctx, bare.writer);
    expect((await postWebhook(ctx, assistantRequest({ callId: 'in-5', phoneNumberId: n.providerNumberId }))).json).toEqual({ error: UNKNOWN_NUMBER_SENTENCE });
    const suspended = await seedPhoneTenant(ctx);
    const m = await provisionNumber(ctx, suspended.writer, 'asst-x');
    await client(ctx).del(`/api/tenants/${suspended.id}/capabilities/PHONE`, suspended.asOwner);
    expect((await postWebhook(ctx, assistantRequest({ callId: 'in-6', phoneNumberId: m.providerNumberId }))).json).toEqual({ error: UNKNOWN_NUMBER_SENTENCE });
    expect(await inboundRows('in-5')).toHaveLength(0);
    expect(await inboundRows('in-6')).toHaveLength(0);
  });

  it('the tenant comes from the dialled number, never from headers', async () => {
    const intruder = await seedPhoneTenant(ctx);
    const r = await postWebhook(ctx, assistantRequest({ callId: 'in-7', phoneNumberId: withAssistant.providerNumberId }), { 'X-Tenant-Id': intruder.id });
    expect(r.json).toEqual({ assistantId: 'asst-front-desk' });
    expect((await inboundRows('in-7'))[0]!.tenant_id).toBe(t.id);
  });
});

describe('webhook: status-update and end-of-call-report', () => {
  const ctx = usePhoneApp();
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;

  beforeAll(async () => {
    t = await seedPhoneTenant(ctx, { connectKey: false });
  });

  const send = async (body: unknown) => {
    const r = await postWebhook(ctx, body);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({});
  };

  it.each([
    ['ringing', 'QUEUED', 'RINGING'],
    ['in-progress', 'QUEUED', 'IN_PROGRESS'],
    ['forwarding', 'RINGING', 'IN_PROGRESS'],
    ['ended', 'IN_PROGRESS', 'ENDED'],
    ['scheduled', 'QUEUED', 'QUEUED'],
    ['queued', 'QUEUED', 'QUEUED'],
    ['queued', 'RINGING', 'RINGING'],
    ['not-found', 'RINGING', 'RINGING'],
    ['banana', 'IN_PROGRESS', 'IN_PROGRESS'],
  ])('status-update %s on a %s call gives %s (forward only; unknown values leave the status)', async (provider, from, to) => {
    const c = await seedTrackedCall(ctx, t.id, from as 'QUEUED');
    await send(statusUpdate({ callId: c.providerCallId, status: provider }));
    expect((await readCall(ctx, c.id))!.status).toBe(to);
  });

  it('in-progress stamps startedAt; ended stamps endedAt; ended with a fault reason is FAILED', async () => {
    const c = await seedTrackedCall(ctx, t.id, 'RINGING');
    await send(statusUpdate({ callId: c.providerCallId, status: 'in-progress' }));
    expect((await readCall(ctx, c.id))!.startedAt).not.toBeNull();
    await send(statusUpdate({ callId: c.providerCallId, status: 'ended', endedReason: 'pipeline-error-openai-llm-failed' }));
    const row = (await readCall(ctx, c.id))!;
    expect(row).toMatchObject({ status: 'FAILED', endedReason: 'pipeline-error-openai-llm-failed' });
    expect(row.endedAt).not.toBeNull();
  });

  it('a late status-update never reopens an ENDED or FAILED call (row untouched)', async () => {
    for (const terminal of ['ENDED', 'FAILED'] as const) {
      const c = await seedTrackedCall(ctx, t.id, terminal);
      const before = (await readCall(ctx, c.id))!;
      await send(statusUpdate({ callId: c.providerCallId, status: 'in-progress' }));
      await send(statusUpdate({ callId: c.providerCallId, status: 'ringing' }));
      expect(await readCall(ctx, c.id)).toEqual(before);
    }
  });

  it('an untracked call is ignored: 200 and nothing is created', async () => {
    await send(statusUpdate({ callId: 'call-unknown', status: 'in-progress' }));
    await send(endOfCallReport({ callId: 'call-unknown', endedReason: 'customer-ended-call' }));
    expect(await ctx.db.sql`select 1 from phone_calls where provider_call_id = 'call-unknown'`).toHaveLength(0);
  });

  it('end-of-call-report stores endedReason, transcript, recording, summary, cost, analysis and the raw payload; ENDED', async () => {
    const c = await seedTrackedCall(ctx, t.id, 'IN_PROGRESS');
    const body = endOfCallReport({
      callId: c.providerCallId,
      endedReason: 'customer-ended-call',
      transcript: 'AI: Hello\nUser: Hi',
      recordingUrl: 'https://storage.example/rec.wav',
      summary: 'Customer confirmed the appointment.',
      cost: 0.1234,
      analysis: { successEvaluation: 'true', structuredData: { confirmed: true } },
      startedAt: '2026-11-21T10:00:00.000Z',
      endedAt: '2026-11-21T10:03:00.000Z',
    });
    await send(body);
    const row = (await readCall(ctx, c.id))!;
    expect(row).toMatchObject({
      status: 'ENDED',
      endedReason: 'customer-ended-call',
      transcript: 'AI: Hello\nUser: Hi',
      recordingUrl: 'https://storage.example/rec.wav',
      summary: 'Customer confirmed the appointment.',
      cost: 0.1234,
      analysis: { summary: 'Customer confirmed the appointment.', successEvaluation: 'true', structuredData: { confirmed: true } },
      endSource: 'webhook',
    });
    expect(row.endPayload).toEqual(body.message);
    expect(row.endedAt?.toISOString()).toBe('2026-11-21T10:03:00.000Z');
    expect(row.startedAt?.toISOString()).toBe('2026-11-21T10:00:00.000Z');
    const api = await client(ctx).get(`/api/phone-calls/${c.id}`, t.reader);
    expect(api.json).toMatchObject({ status: 'ENDED', transcript: 'AI: Hello\nUser: Hi', cost: 0.1234 });
    expect(api.json).not.toHaveProperty('endPayload');
  });

  it.each([
    ['call.start.error-get-assistant', 'FAILED'],
    ['pipeline-error-eleven-labs-voice-failed', 'FAILED'],
    ['call.in-progress.error-vapifault-openai-llm-failed', 'FAILED'],
    ['customer-busy', 'ENDED'],
    ['silence-timed-out', 'ENDED'],
    ['assistant-ended-call', 'ENDED'],
  ])('end-of-call-report with endedReason %s gives %s (the README classification)', async (reason, status) => {
    const c = await seedTrackedCall(ctx, t.id, 'RINGING');
    await send(endOfCallReport({ callId: c.providerCallId, endedReason: reason }));
    expect((await readCall(ctx, c.id))!.status).toBe(status);
  });

  it('older and newer payload layouts (artifact only, top-level only) store the same transcript and recording', async () => {
    for (const layout of ['artifact', 'top-level'] as const) {
      const c = await seedTrackedCall(ctx, t.id, 'IN_PROGRESS');
      await send(endOfCallReport({ callId: c.providerCallId, endedReason: 'customer-ended-call', transcript: 'T', recordingUrl: 'https://r.example/x', layout }));
      expect(await readCall(ctx, c.id)).toMatchObject({ transcript: 'T', recordingUrl: 'https://r.example/x' });
    }
  });

  it('redelivery of the same report changes nothing (version and fields stay)', async () => {
    const c = await seedTrackedCall(ctx, t.id, 'IN_PROGRESS');
    const body = endOfCallReport({ callId: c.providerCallId, endedReason: 'customer-ended-call', transcript: 'once', cost: 1 });
    await send(body);
    const first = (await readCall(ctx, c.id))!;
    await send(body);
    await send(statusUpdate({ callId: c.providerCallId, status: 'ended' }));
    expect(await readCall(ctx, c.id)).toEqual(first);
  });

  it('a report replaces a reconciliation snapshot; without its own instants it keeps the stored ones', async () => {
    const c = await seedTrackedCall(ctx, t.id, 'ENDED');
    await ctx.db.sql`update phone_calls set end_source = 'reconciliation', transcript = 'snapshot', ended_reason = 'customer-ended-call',
      started_at = '2026-11-21T09:00:00Z', ended_at = '2026-11-21T09:05:00Z' where id = ${c.id}`;
    await send(endOfCallReport({ callId: c.providerCallId, endedReason: 'pipeline-error-openai-llm-failed', transcript: 'real' }));
    const row = (await readCall(ctx, c.id))!;
    expect(row).toMatchObject({ status: 'FAILED', endSource: 'webhook', transcript: 'real', endedReason: 'pipeline-error-openai-llm-failed' });
    expect(row.startedAt?.toISOString()).toBe('2026-11-21T09:00:00.000Z');
    expect(row.endedAt?.toISOString()).toBe('2026-11-21T09:05:00.000Z');
  });

  it('a report without endedAt on a call that has none stamps endedAt', async () => {
    const c = await seedTrackedCall(ctx, t.id, 'IN_PROGRESS');
    await send(endOfCallReport({ callId: c.providerCallId, endedReason: 'customer-ended-call' }));
    expect((await readCall(ctx, c.id))!.endedAt).not.toBeNull();
  });

  it('a second, different report only refines ENDED to FAILED; the stored report stays', async () => {
    const c = await seedTrackedCall(ctx, t.id, 'IN_PROGRESS');
    await send(endOfCallReport({ callId: c.providerCallId, endedReason: 'customer-ended-call', transcript: 'first' }));
    const first = (await readCall(ctx, c.id))!;
    await send(endOfCallReport({ callId: c.providerCallId, endedReason: 'pipeline-error-openai-llm-failed', transcript: 'second' }));
    const row = (await readCall(ctx, c.id))!;
    expect(row).toMatchObject({ status: 'FAILED', transcript: 'first', endedReason: 'customer-ended-call', version: first.version + 1 });
    expect(row.endedAt).toEqual(first.endedAt);
  });

  it('messages out of order end in the same state as in order', async () => {
    const messages = (id: string) => [
      statusUpdate({ callId: id, status: 'ringing' }),
      statusUpdate({ callId: id, status: 'in-progress' }),
      statusUpdate({ callId: id, status: 'ended' }),
      endOfCallReport({ callId: id, endedReason: 'call.in-progress.error-providerfault-transport-never-connected', transcript: 'x', cost: 2 }),
    ];
    const inOrder = await seedTrackedCall(ctx, t.id, 'QUEUED');
    for (const m of messages(inOrder.providerCallId)) await send(m);
    const reversed = await seedTrackedCall(ctx, t.id, 'QUEUED');
    for (const m of messages(reversed.providerCallId).reverse()) await send(m);
    const shuffled = await seedTrackedCall(ctx, t.id, 'QUEUED');
    const ms = messages(shuffled.providerCallId);
    for (const m of [ms[2], ms[0], ms[3], ms[1]]) await send(m);
    const pick = (r: Awaited<ReturnType<typeof readCall>>) => ({ status: r!.status, endedReason: r!.endedReason, transcript: r!.transcript, cost: r!.cost });
    const a = pick(await readCall(ctx, inOrder.id));
    expect(a).toEqual({ status: 'FAILED', endedReason: 'call.in-progress.error-providerfault-transport-never-connected', transcript: 'x', cost: 2 });
    expect(pick(await readCall(ctx, reversed.id))).toEqual(a);
    expect(pick(await readCall(ctx, shuffled.id))).toEqual(a);
  });

  it('concurrent deliveries for one call apply one after another (row lock): the outcome is the terminal one', async () => {
    const c = await seedTrackedCall(ctx, t.id, 'QUEUED');
    const bodies = [
      statusUpdate({ callId: c.providerCallId, status: 'ringing' }),
      statusUpdate({ callId: c.providerCallId, status: 'in-progress' }),
      endOfCallReport({ callId: c.providerCallId, endedReason: 'customer-ended-call', transcript: 'y' }),
      statusUpdate({ callId: c.providerCallId, status: 'ringing' }),
    ];
    const answers = await Promise.all([...bodies, ...bodies].map((b) => postWebhook(ctx, b)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await readCall(ctx, c.id)).toMatchObject({ status: 'ENDED', transcript: 'y' });
  });

  it('the tenant comes from the call, never from headers', async () => {
    const c = await seedTrackedCall(ctx, t.id, 'RINGING');
    const other = await seedPhoneTenant(ctx, { connectKey: false });
    await postWebhook(ctx, statusUpdate({ callId: c.providerCallId, status: 'in-progress' }), { 'X-Tenant-Id': other.id, 'X-User-Id': 'x' });
    const row = (await readCall(ctx, c.id))!;
    expect(row).toMatchObject({ tenantId: t.id, status: 'IN_PROGRESS' });
  });

  it('unknown message types and unreadable bodies are acknowledged with 200', async () => {
    await send(otherMessage('speech-update'));
    await send(otherMessage('transcript'));
    for (const body of ['not json', '{}', '{"message":{}}', '[]']) {
      const r = await postWebhook(ctx, body);
      expect(r.status).toBe(200);
    }
  });
});
