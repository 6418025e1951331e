import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { seedFormsTenant } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';

describe('public embed submit', () => {
  const ctx = useTestApp({ 'forms.embed-key': EMBED_KEY, 'forms.rate-limit.per-ip-per-minute': 100_000, 'forms.max-submission-bytes': 4096 });
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
  });
  const submit = (token: string, body: unknown) => client(ctx).post(`/api/public/embed/${token}/submit`, null, body);
  const count = async (table: 'form_instances' | 'outbox') =>
    Number((await ctx.db.sql.unsafe(`select count(*)::int as n from ${table}${table === 'outbox' ? " where capability = 'FORMS'" : ''}`))[0]!.n);

  it('creates a SUBMITTED instance pinned to the published version and its QUEUED intake row, in one transaction', async () => {
    const { token, def } = await publishedForm(ctx, t.asOwner);
    const r = await submit(token, { data: { email: 'ann@example.com', name: 'Ann\u0007', extra: 'dropped' }, processRef: 'case-1' });
    expect(r.status, r.text).toBe(201);
    const view = await client(ctx).get(`/api/form-instances/${r.json.id}`, t.asOwner);
    expect(view.status, view.text).toBe(200);
    expect(view.json).toMatchObject({
      state: 'SUBMITTED',
      definitionCode: def.code,
      definitionVersion: 1,
      origin: 'EMBED',
      data: { email: 'ann@example.com', name: 'Ann' },
      context: { processStartStatus: 'QUEUED', businessKey: `SM-${r.json.id}`, processRef: 'case-1' },
      submissionOutbox: { status: 'QUEUED', retryCount: 0, processInstanceId: null },
    });
    const [row] = await ctx.db.sql`select workflow_type, verb from outbox where business_key = ${r.json.id}`;
    expect(row).toMatchObject({ workflow_type: 'formIntake', verb: 'start' });
  });

  it('400 validation-failed with paths under data.', async () => {
    const { token } = await publishedForm(ctx, t.asOwner);
    const r = await submit(token, { data: { name: 'x' } });
    expect(r.status, r.text).toBe(400);
    expect(r.json.code).toBe('validation-failed');
    expect(r.json.errors.map((e: { path: string }) => e.path)).toContain('data.email');
  });

  it('413 payload-too-large above forms.max-submission-bytes, counted on the stream', async () => {
    const { token } = await publishedForm(ctx, t.asOwner);
    const before = await count('form_instances');
    const r = await submit(token, { data: { email: 'a@example.com', name: 'x'.repeat(8000) } });
    expect(r.status).toBe(413);
    expect(r.json.code).toBe('payload-too-large');
    expect(await count('form_instances')).toBe(before);
  });

  it('a filled honeypot answers 201 with an id and stores nothing', async () => {
    const { token } = await publishedForm(ctx, t.asOwner);
    const before = [await count('form_instances'), await count('outbox')];
    const r = await submit(token, { data: { email: 'bot@example.com' }, _gotcha: 'http://spam' });
    expect(r.status).toBe(201);
    expect(r.json.id).toMatch(/^[0-9a-f-]{36}$/);
    expect([await count('form_instances'), await count('outbox')]).toEqual(before);
    expect((await client(ctx).get(`/api/form-instances/${r.json.id}`, t.asOwner)).status).toBe(404);
  });

  it('one transaction: when the outbox insert fails, no instance and no outbox row remain', async () => {
    const { token } = await publishedForm(ctx, t.asOwner);
    const before = [await count('form_instances'), await count('outbox')];
    await ctx.db.sql.unsafe(`create function refuse_forms_outbox() returns trigger language plpgsql as $$
      begin if new.capability = 'FORMS' then raise exception 'injected'; end if; return new; end $$;
      create trigger refuse_forms_outbox before insert on outbox for each row execute function refuse_forms_outbox();`);
    try {
      const r = await submit(token, { data: { email: 'a@example.com' } });
      expect(r.status).toBe(500);
    } finally {
      await ctx.db.sql.unsafe('drop trigger refuse_forms_outbox on outbox; drop function refuse_forms_outbox();');
    }
    expect([await count('form_instances'), await count('outbox')]).toEqual(before);
  });

  it('parallel submits in a loop: N submits, N instances, N intake rows, no 500', async () => {
    const { token, def } = await publishedForm(ctx, t.asOwner);
    for (let round = 0; round < 3; round++) {
      const rs = await Promise.all(Array.from({ length: 15 }, (_, i) => submit(token, { data: { email: `p${round}-${i}@example.com` } })));
      for (const r of rs) expect(r.status, r.text).toBe(201);
    }
    const [i] = await ctx.db.sql`select count(*)::int as n from form_instances where definition_code = ${def.code}`;
    const [o] = await ctx.db.sql`select count(*)::int as n from outbox o join form_instances f on o.business_key = f.id::text where f.definition_code = ${def.code}`;
    expect([i!.n, o!.n]).toEqual([45, 45]);
  });
});

describe('public embed rate limits', () => {
  const ctx = useTestApp({ 'forms.embed-key': EMBED_KEY, 'forms.rate-limit.per-ip-per-minute': 3, 'forms.rate-limit.per-token-per-minute': 5, 'http.trusted-proxies': ['10.0.0.1'] });
  const submitFrom = (token: string, socket: string, xff?: string) =>
    ctx.app.request(
      `/api/public/embed/${token}/submit`,
      { method: 'POST', headers: { 'Content-Type': 'application/json', ...(xff ? { 'X-Forwarded-For': xff } : {}) }, body: JSON.stringify({ data: { email: 'a@example.com' } }) },
      { incoming: { socket: { remoteAddress: socket } } },
    );

  it('per address: 429 rate-limited with Retry-After once the minute budget is spent', async () => {
    const t = await seedFormsTenant(ctx);
    const { token } = await publishedForm(ctx, t.asOwner);
    for (let i = 0; i < 3; i++) expect((await submitFrom(token, '192.0.2.7')).status).toBe(201);
    const r = await submitFrom(token, '192.0.2.7');
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await r.json()) as { code: string }).code).toBe('rate-limited');
    // X-Forwarded-For from an untrusted peer is ignored: still the same address.
    expect((await submitFrom(token, '192.0.2.7', '198.51.100.1')).status).toBe(429);
    // Behind the trusted proxy, the first untrusted hop from the right is the client.
    expect((await submitFrom(token, '10.0.0.1', '192.0.2.7, 198.51.100.9')).status).toBe(201);
  });

  it('per token: 429 once the token budget is spent, whatever the address', async () => {
    const t = await seedFormsTenant(ctx);
    const { token } = await publishedForm(ctx, t.asOwner);
    for (let i = 0; i < 5; i++) expect((await submitFrom(token, `203.0.113.${i}`)).status).toBe(201);
    const r = await submitFrom(token, '203.0.113.99');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBeTruthy();
  });
});
