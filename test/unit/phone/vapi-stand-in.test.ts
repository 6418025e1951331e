import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type VapiStandIn } from '../../stand-ins/vapi/server.js';

const API_KEY = 'stand-in-key-123456';
let standIn: VapiStandIn;

beforeAll(async () => {
  standIn = await start({ apiKey: API_KEY });
});
afterAll(async () => {
  await standIn.close();
});

async function post(path: string, body: unknown, key = API_KEY) {
  const res = await fetch(`${standIn.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('vapi stand-in speaks the provider shapes', () => {
  it('401 without a bearer key, in the provider error shape', async () => {
    const res = await fetch(`${standIn.baseUrl}/call/x`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'Unauthorized', statusCode: 401 });
  });

  it('POST /call: 400 lists every problem, unknown properties included', async () => {
    const res = await post('/call', { assistantId: 'a', phoneNumberId: 'p', customer: {}, assistantOverride: {} });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Bad Request', statusCode: 400 });
    expect(res.body.message).toEqual(['property assistantOverride should not exist', 'customer.number must be a string']);
  });

  it('POST /call: 400 when customer, phone number or assistant is missing', async () => {
    const res = await post('/call', {});
    expect(res.body.message).toEqual([
      'assistantId, assistant, squadId, squad, workflowId or workflow must be provided',
      'phoneNumberId or phoneNumber must be provided for a phone call',
      'customer must be provided',
    ]);
  });

  it('POST /call: 400 on a body that is not JSON', async () => {
    expect((await post('/call', '{oops')).status).toBe(400);
  });

  it('POST /call: honours numberE164CheckEnabled=false like the provider', async () => {
    const res = await post('/call', { assistantId: 'a', phoneNumberId: 'p', customer: { number: '1234', numberE164CheckEnabled: false } });
    expect(res.status).toBe(201);
  });

  it('POST /phone-number: unknown provider, missing twilio credentials', async () => {
    expect((await post('/phone-number', { provider: 'plivo', number: '+14155550100' })).body.message).toEqual([
      'provider must be one of the following values: vapi, twilio, vonage, telnyx',
    ]);
    expect((await post('/phone-number', { provider: 'twilio', number: '+14155550100', twilioAccountSid: 'AC' })).body.message).toEqual([
      'twilioAuthToken or twilioApiKey and twilioApiSecret must be provided',
    ]);
    expect((await post('/phone-number', { provider: 'telnyx', number: '555', credentialId: 'c', sipUri: 'x' })).body.message).toEqual([
      'property sipUri should not exist',
      expect.stringMatching(/^number must be a valid phone number in the E\.164 format/),
    ]);
  });

  it('seedCall and setCall drive what GET /call returns', async () => {
    const seeded = standIn.seedCall({ id: 'inbound-1', phoneNumberId: 'pn', customer: { number: '+14155550123' } });
    expect(seeded).toMatchObject({ id: 'inbound-1', type: 'inboundPhoneCall', status: 'ringing' });
    standIn.setCall('inbound-1', { status: 'ended', endedReason: 'silence-timed-out' });
    const res = await fetch(`${standIn.baseUrl}/call/inbound-1`, { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(await res.json()).toMatchObject({ status: 'ended', endedReason: 'silence-timed-out', endedAt: expect.any(String) });
    expect(() => standIn.setCall('missing', {})).toThrow(/no call missing/);
  });

  it('unknown routes answer 404 like the provider', async () => {
    expect((await post('/calls', {})).body).toMatchObject({ message: 'Cannot POST /calls', statusCode: 404 });
  });

  it('records requests and returns copies, not live state', async () => {
    const before = standIn.requests.length;
    await post('/call', { assistantId: 'a', phoneNumberId: 'p', customer: { number: '+14155550123' } });
    const recorded = standIn.requests;
    expect(recorded).toHaveLength(before + 1);
    expect(recorded.at(-1)).toMatchObject({ route: 'POST /call', authorization: `Bearer ${API_KEY}` });
    const calls = standIn.calls;
    (calls[0] as Record<string, unknown>).status = 'tampered';
    expect(standIn.calls[0]?.status).not.toBe('tampered');
  });

  it('close() releases a request held by a timeout failure', async () => {
    const other = await start({ apiKey: API_KEY });
    other.failNext('GET /call/:id', 'timeout');
    const pending = fetch(`${other.baseUrl}/call/x`, { headers: { authorization: `Bearer ${API_KEY}` } }).then(
      (r) => r.status,
      () => 'closed',
    );
    await new Promise((r) => setTimeout(r, 50));
    await other.close();
    expect([504, 'closed']).toContain(await pending);
  });
});
