import { beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/app';
import { expectProblem } from '../../support/fixtures';
import { seedPhoneTenant, usePhoneApp } from '../../support/phone';

/** Issue 11 §2: validate and reserve, then ask the provider, then record; nothing the provider created is lost. */
describe('phone numbers: reserved before the provider is asked, recorded after', () => {
  const ctx = usePhoneApp();
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;

  beforeAll(async () => {
    t = await seedPhoneTenant(ctx);
  });

  const asked = () => ctx.standIn.requests.filter((q) => q.route === 'POST /phone-number').length;
  const rows = async () => ctx.db.sql<{ registration: string; provider_number_id: string | null; registration_error: string | null; name: string | null }[]>`
    select registration, provider_number_id, registration_error, name from phone_numbers where tenant_id = ${t.id} order by created_at`;

  it('a value the database refuses fails before the provider is asked: no number is bought, no row is left', async () => {
    // A rule only the database knows stands in for any storage failure the schema cannot foresee.
    await ctx.db.sql`alter table phone_numbers add constraint refuse_for_test check (name is distinct from 'refused by the database')`;
    try {
      const before = { asked: asked(), rows: (await rows()).length };
      const r = await api.post('/api/phone-numbers', t.writer, { provider: 'vapi', name: 'refused by the database' });
      expect(r.status).not.toBe(201);
      expect(asked()).toBe(before.asked);
      expect((await rows()).length).toBe(before.rows);
    } finally {
      await ctx.db.sql`alter table phone_numbers drop constraint refuse_for_test`;
    }
  });

  it('a provider refusal releases the reservation', async () => {
    const before = (await rows()).length;
    ctx.standIn.failNext('POST /phone-number', { status: 400, body: { message: 'area code unavailable' } });
    expectProblem(await api.post('/api/phone-numbers', t.writer, { provider: 'vapi', numberDesiredAreaCode: '999' }), 422, 'provider-rejected');
    expect((await rows()).length).toBe(before);
  });

  it('a number the provider created that cannot be recorded is kept as FAILED with its provider id, and not served', async () => {
    const first = await api.post('/api/phone-numbers', t.writer, { provider: 'vapi', name: 'Front desk' });
    expect(first.status, first.text).toBe(201);
    // The provider answers with an id this platform has registered already.
    const existing = ctx.standIn.numbers.find((n) => n.id === first.json.providerNumberId)!;
    ctx.standIn.failNext('POST /phone-number', { status: 201, body: existing });
    expectProblem(await api.post('/api/phone-numbers', t.writer, { provider: 'vapi', name: 'Second desk' }), 409, 'phone-number-exists');

    const failed = (await rows()).filter((r) => r.registration === 'FAILED');
    expect(failed).toEqual([
      { registration: 'FAILED', provider_number_id: first.json.providerNumberId, registration_error: expect.stringContaining('registered already'), name: 'Second desk' },
    ]);
    expect((await rows()).some((r) => r.registration === 'PENDING')).toBe(false);
    const list = await api.get('/api/phone-numbers', t.reader);
    expect(list.json.filter((n: { providerNumberId: string }) => n.providerNumberId === first.json.providerNumberId)).toHaveLength(1);
    expect((await api.get(`/api/phone-numbers/${first.json.id}`, t.reader)).status).toBe(200);
  });
});
