import { describe, expect, it } from 'vitest';
import { client } from '../../support/app';
import { PROVIDER_KEY, seedPhoneTenant, usePhoneApp } from '../../support/phone';

const FALLBACK_KEY = 'sk-fallback-7d1e0c9b8a7f6e5d4c3b';

describe('the provider key never appears in a response, a log line or a plain column', () => {
  const ctx = usePhoneApp({ 'phone.provider-api-key': FALLBACK_KEY });
  const api = client(ctx);

  it('across connect, read, placement (ok and failing), provisioning (failing), bad input and disconnect', async () => {
    const responses: string[] = [];
    const keep = <T extends { text: string }>(r: T) => {
      responses.push(r.text);
      return r;
    };
    const t = await seedPhoneTenant(ctx, { connectKey: false });
    const keyless = await seedPhoneTenant(ctx, { connectKey: false });

    keep(await api.post('/api/phone-settings/api-key', t.writer, { apiKey: PROVIDER_KEY }));
    keep(await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'a', defaultPhoneNumberId: 'pn' }));
    keep(await api.get('/api/phone-settings', t.reader));
    const ok = keep(await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550100' }));
    expect(ok.json.status).toBe('RINGING');
    // The provider echoing the key in an error body must not carry it into errorMessage or a problem detail.
    ctx.standIn.failNext('POST /call', { status: 401, body: { message: `Invalid Key ${PROVIDER_KEY}`, statusCode: 401 } });
    const failed = keep(await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550100' }));
    expect(failed.json.status).toBe('FAILED');
    expect(failed.json.errorMessage).toContain('[redacted]');
    ctx.standIn.failNext('POST /phone-number', { status: 400, body: { message: [`key ${PROVIDER_KEY} cannot buy numbers`], statusCode: 400 } });
    const refused = keep(await api.post('/api/phone-numbers', t.writer, { provider: 'vapi' }));
    expect(refused.status).toBe(422);
    // The fallback key too.
    await api.put('/api/phone-settings', keyless.writer, { defaultAssistantId: 'a', defaultPhoneNumberId: 'pn' });
    ctx.standIn.failNext('POST /call', { status: 401, body: `bearer ${FALLBACK_KEY} rejected` });
    keep(await api.post('/api/phone-calls', keyless.writer, { customerNumber: '+14155550100' }));
    // Misplaced or malformed keys in bodies are not echoed by validation problems.
    keep(await api.post('/api/phone-settings/api-key', t.writer, { key: PROVIDER_KEY }));
    keep(await api.post('/api/phone-settings/api-key', t.writer, { apiKey: `${PROVIDER_KEY}${'x'.repeat(600)}` }));
    keep(await api.post('/api/phone-settings/api-key', t.writer, `{"apiKey": "${PROVIDER_KEY}"`));
    keep(await api.get('/openapi.json', null));
    keep(await api.del('/api/phone-settings/api-key', t.writer));

    for (const text of responses) {
      expect(text).not.toContain(PROVIDER_KEY);
      expect(text).not.toContain(FALLBACK_KEY);
    }
    const logs = ctx.logs.text();
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).toContain('phone provider key connected');
    expect(logs).not.toContain(PROVIDER_KEY);
    expect(logs).not.toContain(FALLBACK_KEY);
    const rows = JSON.stringify([
      ...(await ctx.db.sql`select * from phone_calls`),
      ...(await ctx.db.sql`select * from phone_numbers`),
      ...(await ctx.db.sql`select * from phone_settings`),
      ...(await ctx.db.sql`select * from tenant_secrets`),
      ...(await ctx.db.sql`select * from outbox`),
    ]);
    expect(rows).not.toContain(PROVIDER_KEY);
    expect(rows).not.toContain(FALLBACK_KEY);
  });
});
