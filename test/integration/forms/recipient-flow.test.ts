// The recipient's code-gated flow over real SMTP: code by e-mail, verify (OPENED), render, autosave,
// submit (SUBMITTED with the intake row); PREPARER fields locked; one 404 for every bad token.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { seedFormsTenant } from '../../support/forms';
import { codeIn, mailTo, smtpUrl, waitForMail } from '../../support/mail';
import { endCodeCooldowns } from '../../support/embed-forms';
import { bearer, openForm, outboundForm, ROLES, send } from '../../support/outbound';

const P = '/api/public/form-instances';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A problem body without what differs per request. */
const sameness = (body: Record<string, unknown>) => {
  const { requestId: _r, instance: _i, ...rest } = body;
  return rest;
};

describe('recipient flow', () => {
  // Every request here comes from one address: its budget is not what these tests are about.
  const ctx = useTestApp({ 'mail.smtp-url': smtpUrl(), 'forms.rate-limit.recipient-per-ip-per-minute': 100_000 });
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let def: { id: string; code: string };
  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    def = await outboundForm(ctx, t.asOwner);
  });
  const sent = async () => {
    const { r, email } = await send(ctx, t.asOwner, def.id);
    expect(r.status, r.text).toBe(201);
    return { ...(r.json as { instanceId: string; token: string }), email };
  };
  const instance = async (id: string) => (await api.get(`/api/form-instances/${id}`, t.asOwner)).json;

  it('code, verify (OPENED), render with prefill and roles, autosave, submit merged: SUBMITTED with the intake row', async () => {
    const s = await sent();
    const access = await openForm(ctx, s.token, s.email);
    expect((await instance(s.instanceId)).state).toBe('OPENED');
    const form = await api.get(`${P}/${s.token}`, null, bearer(access));
    expect(form.status, form.text).toBe(200);
    expect(form.json).toMatchObject({ code: def.code, version: 1, title: 'Account review', prefill: { account: 'AC-1' }, data: {}, roles: ROLES, state: 'OPENED' });
    expect(form.json.schema.fields).toHaveLength(4);
    const saved = await api.call('PATCH', `${P}/${s.token}`, null, { data: { amount: 12, stray: 'x' } }, bearer(access));
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.data).toEqual({ amount: 12 });
    const missing = await api.post(`${P}/${s.token}/submit`, null, {}, bearer(access));
    expect(missing.status).toBe(400);
    expect(missing.json.errors).toEqual([{ path: 'data.answer', message: 'is required' }]);
    const done = await api.post(`${P}/${s.token}/submit`, null, { data: { answer: 'All fine' } }, bearer(access));
    expect(done.status, done.text).toBe(200);
    expect(done.json.state).toBe('SUBMITTED');
    expect(await instance(s.instanceId)).toMatchObject({
      state: 'SUBMITTED',
      data: { account: 'AC-1', amount: 12, answer: 'All fine' },
      context: { processStartStatus: 'QUEUED' },
      submissionOutbox: { status: 'QUEUED' },
    });
    // Still readable, no longer editable.
    expect((await api.get(`${P}/${s.token}`, null, bearer(access))).json.state).toBe('SUBMITTED');
    const again = await api.call('PATCH', `${P}/${s.token}`, null, { data: {} }, bearer(access));
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('instance-state-conflict');
  });

  it('PREPARER fields cannot be changed by the recipient (400 field-not-editable naming the field); the same value passes', async () => {
    const s = await sent();
    const access = await openForm(ctx, s.token, s.email);
    const patch = await api.call('PATCH', `${P}/${s.token}`, null, { data: { account: 'AC-2' } }, bearer(access));
    expect(patch.status).toBe(400);
    expect(patch.json).toMatchObject({ code: 'field-not-editable', errors: [{ path: 'data.account' }] });
    const submit = await api.post(`${P}/${s.token}/submit`, null, { data: { account: null, answer: 'x' } }, bearer(access));
    expect(submit.json.code).toBe('field-not-editable');
    const same = await api.post(`${P}/${s.token}/submit`, null, { data: { account: 'AC-1', answer: 'x' } }, bearer(access));
    expect(same.status, same.text).toBe(200);
  });

  it('unknown, wrong and expired tokens are indistinguishable: otp 202 alike, one 404 body everywhere else', async () => {
    const s = await sent();
    const unknown = 'A'.repeat(43);
    const o1 = await api.post(`${P}/${unknown}/otp`, null);
    const o2 = await api.post(`${P}/${s.token}/otp`, null);
    expect([o1.status, o1.text, o2.status, o2.text]).toEqual([202, '', 202, '']);
    const [mail] = await waitForMail(s.email, 2);
    expect(mail).toBeDefined();
    const v1 = await api.post(`${P}/${unknown}/verify`, null, { code: '123456' });
    const wrong = codeIn((await mailTo(s.email)).at(-1)!) === '000000' ? '111111' : '000000';
    const v2 = await api.post(`${P}/${s.token}/verify`, null, { code: wrong });
    expect(v1.status).toBe(404);
    expect(sameness(v2.json)).toEqual(sameness(v1.json));
    expect(v1.json.code).toBe('recipient-form-not-found');
    const reads = [
      await api.get(`${P}/${unknown}`, null, bearer('x'.repeat(43))),
      await api.get(`${P}/${s.token}`, null),
      await api.get(`${P}/${s.token}`, null, bearer('x'.repeat(43))),
      await api.call('PATCH', `${P}/${s.token}`, null, { data: {} }, bearer('x'.repeat(43))),
      await api.post(`${P}/${s.token}/submit`, null, {}, { Authorization: 'Basic abc' }),
    ];
    for (const r of reads) {
      expect(r.status).toBe(404);
      expect(sameness(r.json)).toEqual(sameness(v1.json));
    }
  });

  it('the code is stored salted and hashed only; a code works once; the attempt cap kills it', async () => {
    const s = await sent();
    await api.post(`${P}/${s.token}/otp`, null);
    const code = codeIn((await waitForMail(s.email, 2)).at(-1)!);
    const row = (await ctx.db.db.execute<Record<string, unknown>>(sql`select * from form_recipient_otps where instance_id = ${s.instanceId}`))[0]!;
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row.code_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row.code_salt).toBeTruthy();
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await api.post(`${P}/${s.token}/verify`, null, { code: wrong })).status).toBe(404);
    // Dead after 5 wrong tries, even with the right code.
    expect((await api.post(`${P}/${s.token}/verify`, null, { code })).status).toBe(404);
    // A new code (past the cooldown) works, once.
    await ctx.db.db.execute(sql`update form_recipient_otps set sent_at = now() - interval '2 minutes' where instance_id = ${s.instanceId}`);
    await endCodeCooldowns(ctx);
    await api.post(`${P}/${s.token}/otp`, null);
    const fresh = codeIn((await waitForMail(s.email, 3)).at(-1)!);
    expect((await api.post(`${P}/${s.token}/verify`, null, { code: fresh })).status).toBe(200);
    expect((await api.post(`${P}/${s.token}/verify`, null, { code: fresh })).status).toBe(404);
  });

  it('resend cooldown: a second request within it sends no mail and answers 429 rate-limited with Retry-After (test/integration/forms/recipient-code-cooldown.test.ts)', async () => {
    const s = await sent();
    expect((await api.post(`${P}/${s.token}/otp`, null)).status).toBe(202);
    await waitForMail(s.email, 2);
    const again = await api.post(`${P}/${s.token}/otp`, null);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    await sleep(300);
    expect(await mailTo(s.email)).toHaveLength(2);
  });

  it('parallel code requests send one mail; parallel verifications of one code: exactly one access token', async () => {
    for (let round = 0; round < 3; round++) {
      const s = await sent();
      const otps = await Promise.all(Array.from({ length: 8 }, () => api.post(`${P}/${s.token}/otp`, null)));
      expect(otps.map((r) => r.status).sort()).toEqual([202, 429, 429, 429, 429, 429, 429, 429]);
      const code = codeIn((await waitForMail(s.email, 2)).at(-1)!);
      await sleep(200);
      expect(await mailTo(s.email)).toHaveLength(2);
      const verifies = await Promise.all(Array.from({ length: 6 }, () => api.post(`${P}/${s.token}/verify`, null, { code })));
      expect(verifies.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
    }
  });

  it('parallel submits: exactly one wins, the others are 409', async () => {
    const s = await sent();
    const access = await openForm(ctx, s.token, s.email);
    const results = await Promise.all(Array.from({ length: 5 }, () => api.post(`${P}/${s.token}/submit`, null, { data: { answer: 'a' } }, bearer(access))));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  it('expiry: an expired code, an expired access token and an instance past expiresAt all answer the 404', async () => {
    const s = await sent();
    await api.post(`${P}/${s.token}/otp`, null);
    const code = codeIn((await waitForMail(s.email, 2)).at(-1)!);
    await ctx.db.db.execute(sql`update form_recipient_otps set expires_at = now() - interval '1 second' where instance_id = ${s.instanceId}`);
    expect((await api.post(`${P}/${s.token}/verify`, null, { code })).status).toBe(404);

    const s2 = await sent();
    const access = await openForm(ctx, s2.token, s2.email);
    await ctx.db.db.execute(sql`update form_recipient_otps set access_expires_at = now() - interval '1 second' where instance_id = ${s2.instanceId}`);
    expect((await api.get(`${P}/${s2.token}`, null, bearer(access))).status).toBe(404);

    const s3 = await sent();
    const access3 = await openForm(ctx, s3.token, s3.email);
    await ctx.db.db.execute(sql`update form_instances set expires_at = now() - interval '1 second' where id = ${s3.instanceId}`);
    expect((await api.get(`${P}/${s3.token}`, null, bearer(access3))).status).toBe(404);
    await endCodeCooldowns(ctx);
    expect((await api.post(`${P}/${s3.token}/otp`, null)).status).toBe(202);
    await sleep(300);
    expect(await mailTo(s3.email)).toHaveLength(2);
  });

  it('instance tokens of embed and API instances open nothing', async () => {
    const c = await api.post('/api/form-instances', t.asOwner, { definitionId: def.id });
    expect(c.status, c.text).toBe(201);
    const [row] = await ctx.db.db.execute<{ token: string }>(sql`select token from form_instances where id = ${c.json.id}`);
    expect((await api.post(`${P}/${row!.token}/verify`, null, { code: '123456' })).json.code).toBe('recipient-form-not-found');
  });
});

describe('recipient rate limits', () => {
  // No resend cooldown here: the per-token budget is what is counted.
  const ctx = useTestApp({ 'mail.smtp-url': smtpUrl(), 'forms.rate-limit.recipient-per-token-per-minute': 3, 'forms.otp.resend-cooldown-seconds': 0 });

  it('past the per-token budget: 429 rate-limited with Retry-After, for unknown tokens too', async () => {
    const api = client(ctx);
    const token = 'B'.repeat(43);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.post(`${P}/${token}/otp`, null)).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
    const r = await api.post(`${P}/${token}/verify`, null, { code: '123456' });
    expect(r.status).toBe(429);
    expect(r.json.code).toBe('rate-limited');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
