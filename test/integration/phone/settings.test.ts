import { beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/app';
import { expectProblem } from '../../support/fixtures';
import { PROVIDER_KEY, provisionNumber, seedPhoneTenant, usePhoneApp } from '../../support/phone';

describe('phone settings: defaults and the write-only provider key', () => {
  const ctx = usePhoneApp();
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;

  beforeAll(async () => {
    t = await seedPhoneTenant(ctx, { connectKey: false });
  });

  it('GET before anything is saved: no defaults, hasApiKey false, version 0', async () => {
    const r = await api.get('/api/phone-settings', t.reader);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      tenantId: t.id,
      defaultAssistantId: null,
      defaultPhoneNumberId: null,
      hasApiKey: false,
      providerKeySource: 'none',
      version: 0,
      updatedBy: null,
      updatedAt: null,
    });
  });

  it('PUT replaces both defaults; an omitted default is cleared; version counts writes', async () => {
    const first = await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'asst-1', defaultPhoneNumberId: 'pn-1' });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ defaultAssistantId: 'asst-1', defaultPhoneNumberId: 'pn-1', version: 1, updatedBy: 'writer' });
    const second = await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'asst-2' });
    expect(second.json).toMatchObject({ defaultAssistantId: 'asst-2', defaultPhoneNumberId: null, version: 2 });
  });

  it('PUT with a stale version is 409 phone-settings-conflict (optimistic lock); version 0 only creates', async () => {
    const current = (await api.get('/api/phone-settings', t.reader)).json.version;
    expectProblem(await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'x', version: current - 1 }), 409, 'phone-settings-conflict');
    expectProblem(await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'x', version: 0 }), 409, 'phone-settings-conflict');
    // The largest storable counter is only a stale one: the next value is never computed from the request (found by the fuzzer).
    expectProblem(await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'x', version: 2_147_483_647 }), 409, 'phone-settings-conflict');
    const ok = await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'asst-3', version: current });
    expect(ok.json).toMatchObject({ defaultAssistantId: 'asst-3', version: current + 1 });
    const fresh = await seedPhoneTenant(ctx, { connectKey: false });
    expect((await api.put('/api/phone-settings', fresh.writer, { defaultAssistantId: 'a', version: 0 })).json.version).toBe(1);
  });

  it("PUT refuses another tenant's number as default (422 unknown-phone-number); unknown fields are 400", async () => {
    const owner = await seedPhoneTenant(ctx);
    const n = await provisionNumber(ctx, owner.writer);
    expectProblem(await api.put('/api/phone-settings', t.writer, { defaultPhoneNumberId: n.providerNumberId }), 422, 'unknown-phone-number');
    expectProblem(await api.put('/api/phone-settings', t.writer, { hasApiKey: true }), 400, 'validation-failed');
  });

  it('POST api-key stores the key encrypted (204), GET then shows only hasApiKey; DELETE disconnects (204, idempotent)', async () => {
    const put = await api.post('/api/phone-settings/api-key', t.writer, { apiKey: PROVIDER_KEY });
    expect(put.status).toBe(204);
    expect(put.text).toBe('');
    const got = await api.get('/api/phone-settings', t.reader);
    expect(got.json).toMatchObject({ hasApiKey: true, providerKeySource: 'tenant' });
    const stored = await ctx.db.sql`select * from tenant_secrets where tenant_id = ${t.id}`;
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(PROVIDER_KEY);
    expect((await api.del('/api/phone-settings/api-key', t.writer)).status).toBe(204);
    expect((await api.del('/api/phone-settings/api-key', t.writer)).status).toBe(204);
    expect((await api.get('/api/phone-settings', t.reader)).json.hasApiKey).toBe(false);
  });

  it('the key is write-only: reading needs no write grant but writing it does; a bad body is 400', async () => {
    expectProblem(await api.post('/api/phone-settings/api-key', t.reader, { apiKey: PROVIDER_KEY }), 403, 'capability-write-required');
    expectProblem(await api.del('/api/phone-settings/api-key', t.reader), 403, 'capability-write-required');
    expectProblem(await api.put('/api/phone-settings', t.reader, {}), 403, 'capability-write-required');
    expectProblem(await api.post('/api/phone-settings/api-key', t.writer, { apiKey: 'short' }), 400, 'validation-failed');
    expectProblem(await api.get('/api/phone-settings', t.nobody), 403, 'capability-not-granted');
  });

  it('refuses a key no HTTP header can carry (400), and calls still reach the provider afterwards (fuzzer: 502 on every later call)', async () => {
    for (const apiKey of ['sk-live-ä€-000000', 'sk-live 00000000', 'sk-live-\n0000000']) {
      const refused = await api.post('/api/phone-settings/api-key', t.writer, { apiKey });
      expectProblem(refused, 400, 'validation-failed');
      expect(refused.json.errors[0].path).toBe('json.apiKey');
    }
    expect((await api.post('/api/phone-settings/api-key', t.writer, { apiKey: ` ${PROVIDER_KEY}\n` })).status).toBe(204);
    expect((await api.post('/api/phone-numbers', t.writer, { provider: 'vapi' })).status).toBe(201);
  });

  it("the tenant's key is the one sent to the provider, per tenant", async () => {
    const a = await seedPhoneTenant(ctx);
    const n = await provisionNumber(ctx, a.writer);
    const sent = ctx.standIn.requests.filter((q) => q.route === 'POST /phone-number').at(-1)!;
    expect(sent.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
    expect(n.providerNumberId).toBeTruthy();
  });
});

describe('phone settings: the global fallback key', () => {
  const ctx = usePhoneApp({ 'phone.provider-api-key': 'sk-fallback-wrong-account-000000' });
  const api = client(ctx);

  it('is used when the tenant has none (providerKeySource fallback); the tenant key wins once connected', async () => {
    const t = await seedPhoneTenant(ctx, { connectKey: false });
    const n = await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'a', defaultPhoneNumberId: 'pn-fallback' });
    expect(n.status).toBe(200);
    expect((await api.get('/api/phone-settings', t.reader)).json).toMatchObject({ hasApiKey: false, providerKeySource: 'fallback' });
    // The stand-in accepts only PROVIDER_KEY, so the fallback key's call fails at the provider.
    const viaFallback = await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550123' });
    expect(viaFallback.json).toMatchObject({ status: 'FAILED', errorMessage: expect.stringContaining('HTTP 401') });
    const asked = ctx.standIn.requests.at(-1)!;
    expect(asked.authorization).toBe('Bearer sk-fallback-wrong-account-000000');
    await api.post('/api/phone-settings/api-key', t.writer, { apiKey: PROVIDER_KEY });
    const viaTenant = await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550123' });
    expect(ctx.standIn.requests.at(-1)!.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
    expect(viaTenant.json).toMatchObject({ status: 'RINGING', errorMessage: null });
  });
});

describe('phone settings: no master key configured', () => {
  const ctx = usePhoneApp({ 'secrets.master-key': undefined });
  it('connecting a key answers 503 secrets-unavailable and stores nothing', async () => {
    const t = await seedPhoneTenant(ctx, { connectKey: false });
    expectProblem(await client(ctx).post('/api/phone-settings/api-key', t.writer, { apiKey: PROVIDER_KEY }), 503, 'secrets-unavailable');
    expect(await ctx.db.sql`select 1 from tenant_secrets`).toHaveLength(0);
  });
});
