// The do-not-call list (issue 25 §3): routes, normalisation, refusal before any provider request
// on every entry point, and the two automatic ways a number joins the list.
import { beforeAll, describe, expect, it } from 'vitest';
import { endOfCallReport, toolCalls } from '../../stand-ins/vapi/messages';
import { client } from '../../support/app';
import { postWebhook, provisionNumber, readCall, seedPhoneTenant, usePhoneApp } from '../../support/phone';

const LISTED = '+14155550123';
const enc = encodeURIComponent;

describe('do-not-call list', () => {
  const ctx = usePhoneApp({ 'internal.key': 'internal-key-for-tests-0123456789' });
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;
  let other: Awaited<ReturnType<typeof seedPhoneTenant>>;
  let numberId: string;

  beforeAll(async () => {
    t = await seedPhoneTenant(ctx);
    other = await seedPhoneTenant(ctx);
    numberId = (await provisionNumber(ctx, t.writer)).providerNumberId;
    await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'asst-1', defaultPhoneNumberId: numberId });
  });

  const dialsTo = (number: string) =>
    ctx.standIn.requests.filter((r) => r.route === 'POST /call' && (r.body as { customer?: { number?: string } })?.customer?.number === number);

  it('PUT normalises to E.164 (201, then 200 with the first entry); GET one and the list; DELETE 204 then 404', async () => {
    const put = await api.put(`/api/phone/do-not-call/${enc('+1 (415) 555-0123')}`, t.writer);
    expect(put.status, put.text).toBe(201);
    expect(put.json).toMatchObject({ number: LISTED, source: 'api', addedBy: 'writer', callId: null });
    const again = await api.put(`/api/phone/do-not-call/${enc(LISTED)}`, t.writer);
    expect(again.status).toBe(200);
    expect(again.json.createdAt).toBe(put.json.createdAt);
    expect((await api.get(`/api/phone/do-not-call/${enc('+1.415.555.0123')}`, t.reader)).json).toMatchObject({ number: LISTED });

    for (const n of ['+442079460958', '+4915123456789']) expect((await api.put(`/api/phone/do-not-call/${enc(n)}`, t.writer)).status).toBe(201);
    const first = await api.get('/api/phone/do-not-call?limit=2', t.reader);
    expect(first.status, first.text).toBe(200);
    expect(first.json.items.map((i: { number: string }) => i.number)).toEqual([LISTED, '+442079460958']);
    const second = await api.get(`/api/phone/do-not-call?limit=2&cursor=${first.json.nextCursor}`, t.reader);
    expect(second.json).toMatchObject({ items: [{ number: '+4915123456789' }], nextCursor: null });

    expect((await api.del(`/api/phone/do-not-call/${enc('+4915123456789')}`, t.writer)).status).toBe(204);
    const gone = await api.del(`/api/phone/do-not-call/${enc('+4915123456789')}`, t.writer);
    expect(gone.status).toBe(404);
    expect(gone.json.code).toBe('do-not-call-entry-not-found');
  });

  it('every error status: invalid number 400, bad cursor 400, guards 403, another tenant 404', async () => {
    for (const bad of ['12345', '+1415', 'not-a-number', '0044 20 7946 0958']) {
      const r = await api.put(`/api/phone/do-not-call/${enc(bad)}`, t.writer);
      expect(r.status, bad).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.json.code).toBe('invalid-phone-number');
    }
    expect((await api.get('/api/phone/do-not-call?cursor=zzz', t.reader)).json.code).toBe('invalid-cursor');
    expect((await api.get('/api/phone/do-not-call?limit=0', t.reader)).status).toBe(400);
    expect((await api.put(`/api/phone/do-not-call/${enc(LISTED)}`, t.reader)).json.code).toBe('capability-write-required');
    expect((await api.del(`/api/phone/do-not-call/${enc(LISTED)}`, t.reader)).status).toBe(403);
    expect((await api.get('/api/phone/do-not-call', t.nobody)).json.code).toBe('capability-not-granted');
    // Tenant isolation: the other tenant sees nothing of this list and cannot remove from it.
    expect((await api.get(`/api/phone/do-not-call/${enc(LISTED)}`, other.writer)).status).toBe(404);
    expect((await api.del(`/api/phone/do-not-call/${enc(LISTED)}`, other.writer)).status).toBe(404);
    expect((await api.get('/api/phone/do-not-call', other.reader)).json.items).toEqual([]);
  });

  it('a listed number is never dialled: 409 number-on-do-not-call with a REFUSED call, on the tenant and internal routes', async () => {
    const before = dialsTo(LISTED).length;
    const r = await api.post('/api/phone-calls', t.writer, { customerNumber: LISTED });
    expect(r.status, r.text).toBe(409);
    expect(r.json.code).toBe('number-on-do-not-call');
    expect(await readCall(ctx, r.json.callId)).toMatchObject({ status: 'REFUSED', customerNumber: LISTED, processStatus: 'CLOSED', providerCallId: null });
    const internal = await api.call('POST', '/api/internal/phone-calls', null, { customerNumber: LISTED }, {
      'x-internal-key': 'internal-key-for-tests-0123456789',
      'x-tenant-id': t.id,
    });
    expect(internal.status, internal.text).toBe(409);
    // A repeat with the same Idempotency-Key answers the same refusal, naming the first call.
    const keyed = { 'idempotency-key': 'dnc-repeat' };
    const k1 = await api.call('POST', '/api/phone-calls', t.writer, { customerNumber: LISTED }, keyed);
    const k2 = await api.call('POST', '/api/phone-calls', t.writer, { customerNumber: LISTED }, keyed);
    expect([k1.status, k2.status]).toEqual([409, 409]);
    expect(k2.json.callId).toBe(k1.json.callId);
    const listed = await api.get('/api/phone-calls?status=REFUSED', t.reader);
    expect(listed.json.items.length).toBeGreaterThanOrEqual(3);
    expect(dialsTo(LISTED).length).toBe(before);
    // The other tenant's list is its own: the number is callable there.
    await api.put('/api/phone-settings', other.writer, { defaultAssistantId: 'asst-1', defaultPhoneNumberId: 'pn-unregistered' });
    expect((await api.post('/api/phone-calls', other.writer, { customerNumber: LISTED })).status).toBe(201);
  });

  it("the provider's opt-out endedReason and the assistant's tool call put the callee on the list", async () => {
    const byReason = '+14155550131';
    const call = (await api.post('/api/phone-calls', t.writer, { customerNumber: byReason })).json;
    expect((await postWebhook(ctx, endOfCallReport({ callId: call.providerCallId, endedReason: 'customer-asked-not-to-be-called' }))).status).toBe(200);
    expect((await api.get(`/api/phone/do-not-call/${enc(byReason)}`, t.reader)).json).toMatchObject({ source: 'ended-reason', callId: call.id, addedBy: 'provider' });

    const byTool = '+14155550132';
    const toolCall = (await api.post('/api/phone-calls', t.writer, { customerNumber: byTool })).json;
    const answer = await postWebhook(ctx, toolCalls({ callId: toolCall.providerCallId, calls: [{ id: 'tc-dnc', name: 'addToDoNotCall', arguments: {} }] }));
    expect(answer.status).toBe(200);
    expect(answer.json.results[0]).toMatchObject({ toolCallId: 'tc-dnc', result: expect.stringContaining('do-not-call') });
    expect((await api.get(`/api/phone/do-not-call/${enc(byTool)}`, t.reader)).json).toMatchObject({ source: 'assistant-tool', callId: toolCall.id });

    const before = dialsTo(byTool).length;
    expect((await api.post('/api/phone-calls', t.writer, { customerNumber: byTool })).status).toBe(409);
    expect(dialsTo(byTool).length).toBe(before);
  });
});

describe('calling policies and cancel: every error status', () => {
  const ctx = usePhoneApp();
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;
  let other: Awaited<ReturnType<typeof seedPhoneTenant>>;
  let ours: { id: string; providerNumberId: string };

  beforeAll(async () => {
    t = await seedPhoneTenant(ctx);
    other = await seedPhoneTenant(ctx);
    ours = await provisionNumber(ctx, t.writer);
    await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'asst-1', defaultPhoneNumberId: ours.providerNumberId });
  });

  it('assistant and number policies: 200 round trip, 404 without one, 422 unknown calendar, 400 bad redial, 404 for another tenant', async () => {
    const path = '/api/phone/assistants/asst-policy/calling-policy';
    expect((await api.get(path, t.reader)).json.code).toBe('calling-policy-not-found');
    const set = await api.put(path, t.writer, { redial: { maxAttempts: 3, backoffMinutes: 5, on: ['no-answer', 'busy'] } });
    expect(set.status, set.text).toBe(200);
    expect((await api.get(path, t.reader)).json).toMatchObject({ subjectKind: 'assistant', callingCalendarKey: null, redial: { maxAttempts: 3 } });
    expect((await api.get(path, other.reader)).status).toBe(404);
    const unknown = await api.put(path, t.writer, { callingCalendarKey: 'no-such-process' });
    expect(unknown.status).toBe(422);
    expect(unknown.json.code).toBe('unknown-process-calendar');
    for (const redial of [{ maxAttempts: 0, backoffMinutes: 1, on: ['busy'] }, { maxAttempts: 2, backoffMinutes: -1, on: ['busy'] }, { maxAttempts: 2, backoffMinutes: 1, on: ['voicemail'] }, { maxAttempts: 2, backoffMinutes: 1, on: [] }]) {
      expect((await api.put(path, t.writer, { redial })).status).toBe(400);
    }
    expect((await api.put(path, t.reader, {})).status).toBe(403);
    expect((await api.del(path, t.writer)).status).toBe(204);
    expect((await api.del(path, t.writer)).status).toBe(404);

    const numberPath = `/api/phone-numbers/${ours.id}/calling-policy`;
    expect((await api.put(numberPath, t.writer, {})).status).toBe(200);
    for (const [method, body] of [['PUT', {}], ['GET', undefined], ['DELETE', undefined]] as const) {
      const r = await api.call(method, numberPath, other.writer, body);
      expect(r.status, method).toBe(404);
      expect(r.json.code).toBe('phone-number-not-found');
    }
    expect((await api.get('/api/phone-numbers/not-a-uuid/calling-policy', t.reader)).status).toBe(400);
  });

  it('a redial policy in the placement body is validated (400) and stored on the call', async () => {
    expect((await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550150', redial: { maxAttempts: 11, backoffMinutes: 1, on: ['busy'] } })).status).toBe(400);
    const r = await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550150', redial: { maxAttempts: 2, backoffMinutes: 1, on: ['busy'] } });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ attempt: 1, firstCallId: r.json.id, redial: { maxAttempts: 2 }, scheduledFor: null });
  });

  it('cancel: 409 for a call that is not SCHEDULED, 404 unknown or another tenant, 403 for a reader', async () => {
    const call = (await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550151' })).json;
    const r = await api.post(`/api/phone-calls/${call.id}/cancel`, t.writer);
    expect(r.status, r.text).toBe(409);
    expect(r.json.code).toBe('phone-call-not-scheduled');
    expect((await api.post(`/api/phone-calls/${call.id}/cancel`, other.writer)).json.code).toBe('phone-call-not-found');
    expect((await api.post('/api/phone-calls/00000000-0000-4000-8000-000000000000/cancel', t.writer)).status).toBe(404);
    expect((await api.post(`/api/phone-calls/${call.id}/cancel`, t.reader)).status).toBe(403);
  });
});
