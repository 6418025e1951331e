// The provider may send a call's first messages before POST /call has answered us, so before
// the call's provider id is recorded. Such a message joins its outbound call by the id placement
// sends in the call's metadata, and placement's own answer then never steps the call back.
import { beforeAll, describe, expect, it } from 'vitest';
import { endOfCallReport, statusUpdate } from '../../stand-ins/vapi/messages';
import { client } from '../../support/app';
import { postWebhook, provisionNumber, readCall, seedPhoneTenant, usePhoneApp } from '../../support/phone';

type JsonMap = Record<string, unknown>;
const metadataOf = (call: JsonMap) => (call.assistantOverrides as { metadata: JsonMap }).metadata;

describe('webhook: a message that overtakes its placement', () => {
  const ctx = usePhoneApp();
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;

  beforeAll(async () => {
    t = await seedPhoneTenant(ctx);
    const numberId = (await provisionNumber(ctx, t.writer)).providerNumberId;
    const r = await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'asst-default', defaultPhoneNumberId: numberId });
    expect(r.status, r.text).toBe(200);
  });

  const place = () => api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550123' });

  it('a status-update before POST /call answers is applied, and the answer keeps its status', async () => {
    const answers: number[] = [];
    ctx.standIn.beforeNextCallAnswer(async (call) => {
      const r = await postWebhook(ctx, statusUpdate({ callId: call.id as string, direction: 'outbound', status: 'in-progress', metadata: metadataOf(call) }));
      answers.push(r.status);
    });
    const r = await place();
    expect(r.status, r.text).toBe(201);
    expect(answers).toEqual([200]);
    expect(r.json).toMatchObject({ status: 'IN_PROGRESS', providerCallId: expect.any(String) });
    const row = await readCall(ctx, r.json.id);
    expect(row).toMatchObject({ status: 'IN_PROGRESS', providerCallId: r.json.providerCallId });
    expect(row!.startedAt).not.toBeNull();
  });

  it('an end-of-call-report before POST /call answers settles the call (a busy line: ENDED); the answer shows it', async () => {
    ctx.standIn.beforeNextCallAnswer(async (call) => {
      await postWebhook(ctx, endOfCallReport({ callId: call.id as string, direction: 'outbound', endedReason: 'customer-busy', metadata: metadataOf(call) }));
    });
    const r = await place();
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ status: 'ENDED', endedReason: 'customer-busy' });
    expect(await readCall(ctx, r.json.id)).toMatchObject({ status: 'ENDED', providerCallId: r.json.providerCallId });
  });

  it('a "queued" status-update before the answer records the id; the answer still moves the call to RINGING', async () => {
    ctx.standIn.beforeNextCallAnswer(async (call) => {
      await postWebhook(ctx, statusUpdate({ callId: call.id as string, direction: 'outbound', status: 'queued', metadata: metadataOf(call) }));
    });
    const r = await place();
    expect(r.json).toMatchObject({ status: 'RINGING' });
    expect(await readCall(ctx, r.json.id)).toMatchObject({ status: 'RINGING', providerCallId: r.json.providerCallId });
  });

  it('a failed answer after a message joined the call leaves the call to its messages, not FAILED', async () => {
    ctx.standIn.beforeNextCallAnswer(async (call) => {
      await postWebhook(ctx, statusUpdate({ callId: call.id as string, direction: 'outbound', status: 'in-progress', metadata: metadataOf(call) }));
      return { status: 503 };
    });
    const r = await place();
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ status: 'IN_PROGRESS', errorMessage: null, endedAt: null });
    expect(await readCall(ctx, r.json.id)).toMatchObject({ status: 'IN_PROGRESS', errorMessage: null });
  });

  it('never joins by metadata a call that is not an in-flight placement, or another provider id', async () => {
    const placed = await place();
    expect(placed.json.status).toBe('RINGING');
    // A message naming a placed call under a different provider id changes nothing.
    await postWebhook(ctx, statusUpdate({ callId: 'prov-someone-else', direction: 'outbound', status: 'in-progress', metadata: { platformCallId: placed.json.id } }));
    expect(await readCall(ctx, placed.json.id)).toMatchObject({ status: 'RINGING', providerCallId: placed.json.providerCallId });
    // Nor does one naming an id that is no call of ours.
    const unknown = await postWebhook(ctx, statusUpdate({ callId: 'prov-x', status: 'in-progress', metadata: { platformCallId: '00000000-0000-4000-8000-000000000000' } }));
    expect(unknown.status).toBe(200);
    expect(await ctx.db.sql`select 1 from phone_calls where provider_call_id = 'prov-x'`).toHaveLength(0);
  });
});
