// The resend cooldown of recipient codes, answered: a second request for one link within
// `forms.otp.resend-cooldown-seconds` is 429 `rate-limited` with Retry-After and sends nothing,
// for a known token and an unknown one alike (the answer never tells whether a link exists);
// parallel requests get one code and one mail; past the cooldown a new code is sent.
import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { endCodeCooldowns } from '../../support/embed-forms';
import { seedFormsTenant } from '../../support/forms';
import { mailTo, smtpUrl, waitForMail } from '../../support/mail';
import { outboundForm, send } from '../../support/outbound';

const P = '/api/public/form-instances';
const COOLDOWN = 60;
/** A problem body without what differs per request. */
const sameness = ({ requestId: _r, ...rest }: Record<string, unknown>) => rest;

describe('recipient code cooldown', () => {
  const ctx = useTestApp({ 'mail.smtp-url': smtpUrl(), 'forms.rate-limit.recipient-per-ip-per-minute': 100_000, 'forms.otp.resend-cooldown-seconds': COOLDOWN });
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let def: { id: string };
  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    def = await outboundForm(ctx, t.asOwner);
  });
  const sent = async () => {
    const { r, email } = await send(ctx, t.asOwner, def.id);
    expect(r.status, r.text).toBe(201);
    return { token: r.json.token as string, instanceId: r.json.instanceId as string, email };
  };

  it('within the cooldown: 429 rate-limited with Retry-After and no mail, the same answer for an unknown token', async () => {
    const s = await sent();
    const unknown = 'C'.repeat(43);
    expect((await api.post(`${P}/${s.token}/otp`, null)).status).toBe(202);
    expect((await api.post(`${P}/${unknown}/otp`, null)).status).toBe(202);
    await waitForMail(s.email, 2);
    const known = await api.post(`${P}/${s.token}/otp`, null);
    const other = await api.post(`${P}/${unknown}/otp`, null);
    for (const r of [known, other]) {
      expect(r.status).toBe(429);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const seconds = Number(r.headers.get('retry-after'));
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(COOLDOWN);
      expect(r.json).toMatchObject({ code: 'rate-limited', retryAfterSeconds: seconds });
    }
    expect(sameness(known.json).code).toBe(sameness(other.json).code);
    expect(sameness(known.json).title).toBe(sameness(other.json).title);
    expect(await mailTo(s.email)).toHaveLength(2);
  });

  it('parallel requests: one 202 and one mail, the others 429 (three rounds)', async () => {
    for (let round = 0; round < 3; round++) {
      const s = await sent();
      const answers = await Promise.all(Array.from({ length: 6 }, () => api.post(`${P}/${s.token}/otp`, null)));
      expect(answers.map((r) => r.status).sort()).toEqual([202, 429, 429, 429, 429, 429]);
      await waitForMail(s.email, 2);
      expect(await mailTo(s.email)).toHaveLength(2);
    }
  });

  it('past the cooldown a new code is sent', async () => {
    const s = await sent();
    expect((await api.post(`${P}/${s.token}/otp`, null)).status).toBe(202);
    await waitForMail(s.email, 2);
    expect((await api.post(`${P}/${s.token}/otp`, null)).status).toBe(429);
    // What a minute does: the cooldown's row ends, and the code's own sent time is that old.
    await ctx.db.sql`update form_recipient_otps set sent_at = now() - interval '61 seconds' where instance_id = ${s.instanceId}`;
    await endCodeCooldowns(ctx);
    expect((await api.post(`${P}/${s.token}/otp`, null)).status).toBe(202);
    expect(await waitForMail(s.email, 3)).toHaveLength(3);
  });
});
