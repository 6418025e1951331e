// Embed attachment uploads are budgeted per client address and per embed token: a browser mints its
// own session, so the per-session cap alone would let one address store without bound.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app';
import { multipart, patterned, testS3Client } from '../../support/documents';
import { seedFormsTenant } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';

const newSession = () => `emb_${randomBytes(16).toString('base64url')}`;

describe('embed attachment upload budgets', () => {
  const ctx = useTestApp({
    'forms.embed-key': EMBED_KEY,
    'forms.rate-limit.attachments-per-ip-per-minute': 3,
    'forms.rate-limit.attachments-per-token-per-minute': 5,
    deps: { s3: testS3Client() },
  });
  const uploadFrom = async (token: string, address: string) => {
    const m = multipart({ fields: {}, file: { filename: 'scan.pdf', data: patterned(500), contentType: 'application/pdf' } });
    const res = await ctx.app.request(
      '/api/public/documents',
      {
        method: 'POST',
        headers: { 'X-Embed-Token': token, 'X-Embed-Session': newSession(), 'Content-Type': m.contentType, 'Content-Length': String(m.length) },
        body: Buffer.concat([m.head, m.data, m.tail]),
      },
      { incoming: { socket: { remoteAddress: address } } },
    );
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
  };

  it('per address: fresh sessions do not escape it; 429 rate-limited with Retry-After, and nothing is stored', async () => {
    const t = await seedFormsTenant(ctx);
    const { token } = await publishedForm(ctx, t.asOwner);
    for (let i = 0; i < 3; i++) expect((await uploadFrom(token, '192.0.2.40')).status).toBe(201);
    const stored = async () => Number((await ctx.db.sql`select count(*)::int as n from documents where tenant_id = ${t.id}`)[0]!.n);
    const before = await stored();
    const refused = await uploadFrom(token, '192.0.2.40');
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).code).toBe('rate-limited');
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(await stored()).toBe(before);
    expect((await uploadFrom(token, '192.0.2.41')).status).toBe(201);
  });

  it('per embed token: 429 once its budget is spent, whatever the address', async () => {
    const t = await seedFormsTenant(ctx);
    const { token } = await publishedForm(ctx, t.asOwner);
    for (let i = 0; i < 5; i++) expect((await uploadFrom(token, `203.0.113.${10 + i}`)).status).toBe(201);
    expect((await uploadFrom(token, '203.0.113.99')).status).toBe(429);
  });
});
