import { beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/app';
import { expectProblem } from '../../support/fixtures';
import { seedPhoneTenant, usePhoneApp } from '../../support/phone';

const TWILIO_TOKEN = 'twilio-auth-token-5e6f7a8b9c0d1e2f';

describe('phone numbers: provisioning, import, list, get', () => {
  const ctx = usePhoneApp();
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;

  beforeAll(async () => {
    t = await seedPhoneTenant(ctx);
  });

  const count = async () => (await ctx.db.sql`select count(*)::int as n from phone_numbers`)[0]!.n as number;

  it('provisions a provider number: created at the provider, registered with its id, 201', async () => {
    const r = await api.post('/api/phone-numbers', t.writer, { provider: 'vapi', numberDesiredAreaCode: '628', name: 'Front desk', assistantId: 'asst-in' });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ provider: 'vapi', name: 'Front desk', assistantId: 'asst-in', createdBy: 'writer', providerStatus: 'active' });
    expect(r.json.number).toMatch(/^\+1628555\d{4}$/);
    expect(ctx.standIn.numbers.some((n) => n.id === r.json.providerNumberId)).toBe(true);
  });

  it('imports carrier numbers (twilio, vonage, telnyx); carrier credentials are passed on, never stored or echoed', async () => {
    const tw = await api.post('/api/phone-numbers', t.writer, {
      provider: 'twilio',
      number: '+14155550101',
      twilioAccountSid: 'AC123',
      twilioAuthToken: TWILIO_TOKEN,
    });
    expect(tw.status, tw.text).toBe(201);
    expect(tw.json).toMatchObject({ provider: 'twilio', number: '+14155550101' });
    expect(tw.text).not.toContain(TWILIO_TOKEN);
    const sent = ctx.standIn.requests.filter((q) => q.route === 'POST /phone-number').at(-1)!;
    expect((sent.body as Record<string, unknown>).twilioAuthToken).toBe(TWILIO_TOKEN);
    const stored = await ctx.db.sql`select * from phone_numbers where provider_number_id = ${tw.json.providerNumberId}`;
    expect(JSON.stringify(stored)).not.toContain(TWILIO_TOKEN);
    expect(ctx.logs.text()).not.toContain(TWILIO_TOKEN);

    for (const provider of ['vonage', 'telnyx'] as const) {
      const r = await api.post('/api/phone-numbers', t.writer, { provider, number: '+442071838750', credentialId: `cred-${provider}` });
      expect(r.status, r.text).toBe(201);
      expect(r.json).toMatchObject({ provider, number: '+442071838750' });
    }
  });

  it('input mistakes are 400 before the provider is asked (unknown provider, import without E.164, twilio without credentials)', async () => {
    const asked = ctx.standIn.requests.length;
    expectProblem(await api.post('/api/phone-numbers', t.writer, { provider: 'plivo' }), 400, 'validation-failed');
    expectProblem(await api.post('/api/phone-numbers', t.writer, { provider: 'vonage', number: '4415', credentialId: 'c' }), 400, 'validation-failed');
    expectProblem(
      await api.post('/api/phone-numbers', t.writer, { provider: 'twilio', number: '+14155550102', twilioAccountSid: 'AC1' }),
      400,
      'validation-failed',
    );
    expect(ctx.standIn.requests.length).toBe(asked);
  });

  it.each([
    [422, 'provider-rejected', 'HTTP 400', { status: 400, body: { message: ['number must be a valid phone number'], error: 'Bad Request', statusCode: 400 } }],
    [422, 'provider-key-rejected', 'HTTP 401', { status: 401 }],
    [503, 'provider-rate-limited', 'HTTP 429', { status: 429 }],
    [502, 'provider-error', 'HTTP 500', { status: 500 }],
    [504, 'provider-timeout', 'timeout', 'timeout' as const],
  ])('fails hard on provider error: answers %i %s for a provider %s, nothing registered', async (status, code, _what, failure) => {
    const before = await count();
    ctx.standIn.failNext('POST /phone-number', failure);
    const r = await api.post('/api/phone-numbers', t.writer, { provider: 'vapi' });
    expectProblem(r, status, code);
    expect(r.json.detail).toContain('Vapi POST /phone-number');
    expect(await count()).toBe(before);
  });

  it('a provider answer that is not JSON is 502 provider-invalid-response', async () => {
    ctx.standIn.failNext('POST /phone-number', { status: 201, body: '<html>proxy</html>' });
    expectProblem(await api.post('/api/phone-numbers', t.writer, { provider: 'vapi' }), 502, 'provider-invalid-response');
  });

  it('without any provider key: 422 provider-key-missing', async () => {
    const keyless = await seedPhoneTenant(ctx, { connectKey: false });
    expectProblem(await api.post('/api/phone-numbers', keyless.writer, { provider: 'vapi' }), 422, 'provider-key-missing');
  });

  it('lists and gets the tenant’s own numbers; another tenant’s number is 404 and absent from its list', async () => {
    const list = await api.get('/api/phone-numbers', t.reader);
    expect(list.status).toBe(200);
    expect(list.json.length).toBeGreaterThanOrEqual(4);
    const first = list.json[0];
    const one = await api.get(`/api/phone-numbers/${first.id}`, t.reader);
    expect(one.json).toEqual(first);
    const other = await seedPhoneTenant(ctx);
    expectProblem(await api.get(`/api/phone-numbers/${first.id}`, other.reader), 404, 'phone-number-not-found');
    expect((await api.get('/api/phone-numbers', other.reader)).json).toEqual([]);
  });

  it('guard: listing needs a PHONE grant, provisioning needs read-write', async () => {
    expectProblem(await api.get('/api/phone-numbers', t.nobody), 403, 'capability-not-granted');
    expectProblem(await api.post('/api/phone-numbers', t.reader, { provider: 'vapi' }), 403, 'capability-write-required');
  });
});
