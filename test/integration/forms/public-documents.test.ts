// The embed attachment routes: the token as the only credential, the session processRef, the
// per-session cap under parallel uploads, the size cap, tenant and session isolation, and /link.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { multipart, patterned, testS3Client } from '../../support/documents';
import { seedFormsTenant } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';

const CAP = 3;
const s3 = testS3Client();
const newSession = () => `emb_${randomBytes(16).toString('base64url')}`;
const BASE = '/api/public/documents';

describe('embed attachments (/api/public/documents)', () => {
  const ctx = useTestApp({
    'forms.embed-key': EMBED_KEY,
    'forms.rate-limit.per-ip-per-minute': 100_000,
    'forms.rate-limit.attachments-per-ip-per-minute': 100_000,
    'forms.embed-attachments-per-session': CAP,
    'forms.embed-attachment-max-bytes': 32 * 1024,
    deps: { s3 },
  });
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let other: Awaited<ReturnType<typeof seedFormsTenant>>;
  let token: string;
  let otherToken: string;
  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    other = await seedFormsTenant(ctx);
    token = (await publishedForm(ctx, t.asOwner)).token;
    otherToken = (await publishedForm(ctx, other.asOwner)).token;
  });

  const headers = (tok: string | undefined, session: string | undefined) => {
    const h: Record<string, string> = {};
    if (tok !== undefined) h['X-Embed-Token'] = tok;
    if (session !== undefined) h['X-Embed-Session'] = session;
    return h;
  };
  const upload = async (tok: string | undefined, session: string | undefined, size = 1000, filename = 'scan.pdf') => {
    const m = multipart({ fields: {}, file: { filename, data: patterned(size), contentType: 'application/pdf' } });
    const res = await ctx.app.request(BASE, {
      method: 'POST',
      headers: { ...headers(tok, session), 'Content-Type': m.contentType, 'Content-Length': String(m.length) },
      body: Buffer.concat([m.head, m.data, m.tail]),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined, text };
  };
  const list = (tok: string | undefined, session: string | undefined) => client(ctx).get(BASE, null, headers(tok, session));
  const remove = (tok: string | undefined, session: string | undefined, id: string) => client(ctx).del(`${BASE}/${id}`, null, headers(tok, session));
  const link = (tok: string | undefined, body: unknown) => client(ctx).post(`${BASE}/link`, null, body, headers(tok, undefined));
  const submit = (tok: string, processRef: string) =>
    client(ctx).post(`/api/public/embed/${tok}/submit`, null, { data: { email: 'ann@example.com' }, processRef });
  const row = async (id: string) => (await ctx.db.sql`select process_ref, kind, capability, created_by, owner_entity_id, status from documents where id = ${id}`)[0];

  it('stores a FORMS attachment under the session processRef and lists only it, without tenant or case fields', async () => {
    const session = newSession();
    const up = await upload(token, session, 2048, 'id card.pdf');
    expect(up.status, up.text).toBe(201);
    expect(Object.keys(up.json).sort()).toEqual(['contentType', 'createdAt', 'filename', 'id', 'scanStatus', 'sizeBytes', 'status']);
    expect(up.json).toMatchObject({ filename: 'id card.pdf', sizeBytes: 2048, status: 'READY' });
    expect(await row(up.json.id)).toMatchObject({ process_ref: session, kind: 'FORM_ATTACHMENT', capability: 'FORMS', created_by: null, owner_entity_id: null });
    await upload(token, newSession());
    const l = await list(token, session);
    expect(l.status, l.text).toBe(200);
    expect(l.json.items.map((d: { id: string }) => d.id)).toEqual([up.json.id]);
  });

  it('every route answers a missing, unknown, badly signed or rotated token exactly alike (404 embed-form-not-found)', async () => {
    const { def, token: rotatedToken } = await publishedForm(ctx, t.asOwner);
    expect((await client(ctx).post(`/api/form-definitions/${def.id}/embed-token/rotate`, t.asOwner)).status).toBe(200);
    const [payload] = token.split('.');
    const forged = `${payload}.${Buffer.alloc(32).toString('base64url')}`;
    const session = newSession();
    const docId = '00000000-0000-4000-8000-000000000000';
    const answers: unknown[] = [];
    for (const tok of [undefined, 'nope', forged, rotatedToken, 'x'.repeat(5000)]) {
      for (const r of [
        await upload(tok, session),
        await list(tok, session),
        await remove(tok, session, docId),
        await link(tok, { processRef: session, instanceId: docId }),
      ]) {
        expect(r.status, r.text).toBe(404);
        const { requestId: _ignored, ...rest } = r.json;
        answers.push(rest);
      }
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({ code: 'embed-form-not-found' });
  });

  it('400 embed-session-invalid for a missing or low-entropy processRef', async () => {
    for (const session of [undefined, 'case-1', 'emb_short', `emb_${'a'.repeat(21)}`, `emb_${'a'.repeat(22)}!`]) {
      const r = await upload(token, session);
      expect(r.status, r.text).toBe(400);
      expect(r.json.code).toBe('embed-session-invalid');
      expect((await list(token, session)).json.code).toBe('embed-session-invalid');
    }
    expect((await link(token, { processRef: 'case-1', instanceId: '00000000-0000-4000-8000-000000000000' })).json.code).toBe('embed-session-invalid');
  });

  it("another session's and another tenant's documents are 404 and stay", async () => {
    const mine = newSession();
    const theirs = newSession();
    const foreign = await upload(otherToken, theirs);
    expect(foreign.status, foreign.text).toBe(201);
    const sameTenant = await upload(token, theirs);
    expect(sameTenant.status).toBe(201);
    for (const id of [foreign.json.id, sameTenant.json.id]) {
      const r = await remove(token, mine, id);
      expect(r.status, r.text).toBe(404);
      expect(r.json.code).toBe('document-not-found');
      expect((await row(id))!.status).toBe('READY');
    }
    // A session belongs to its form: another form's token cannot add to it.
    const { token: secondForm } = await publishedForm(ctx, t.asOwner);
    const crossed = await upload(secondForm, theirs);
    expect(crossed.status, crossed.text).toBe(400);
    expect(crossed.json.code).toBe('embed-session-invalid');
    // The other tenant's token with this tenant's processRef is another session: it sees nothing here.
    expect((await list(otherToken, theirs)).json.items.map((d: { id: string }) => d.id)).toEqual([foreign.json.id]);
  });

  it(`the per-session cap (${CAP}) holds under parallel uploads, and a delete gives a slot back`, async () => {
    for (let round = 0; round < 4; round++) {
      const session = newSession();
      const results = await Promise.all(Array.from({ length: 8 }, () => upload(token, session)));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses, JSON.stringify(results.map((r) => r.text))).toEqual([...Array(CAP).fill(201), ...Array(8 - CAP).fill(409)]);
      expect(results.find((r) => r.status === 409)!.json.code).toBe('embed-attachment-cap-reached');
      const live = (await list(token, session)).json.items;
      expect(live).toHaveLength(CAP);
      const del = await remove(token, session, live[0].id);
      expect(del.status, del.text).toBe(200);
      expect(del.json.status).toBe('DELETED');
      expect((await upload(token, session)).status).toBe(201);
      expect((await upload(token, session)).status).toBe(409);
    }
  });

  it('413 document-too-large above forms.embed-attachment-max-bytes, and the slot is given back', async () => {
    const session = newSession();
    for (let i = 0; i < CAP + 1; i++) {
      const r = await upload(token, session, 40 * 1024);
      expect(r.status, r.text).toBe(413);
      expect(r.json.code).toBe('document-too-large');
    }
    expect((await upload(token, session)).status).toBe(201);
  });

  it("link binds the session's READY attachments to its instance once; afterwards the session is closed", async () => {
    const session = newSession();
    const a = (await upload(token, session)).json.id;
    const b = (await upload(token, session)).json.id;
    const gone = (await upload(token, session)).json.id;
    expect((await remove(token, session, gone)).status).toBe(200);
    const sub = await submit(token, session);
    expect(sub.status, sub.text).toBe(201);
    const r = await link(token, { processRef: session, instanceId: sub.json.id });
    expect(r.status, r.text).toBe(200);
    expect(r.json.instanceId).toBe(sub.json.id);
    expect([...r.json.documentIds].sort()).toEqual([a, b].sort());
    expect((await row(a))!.owner_entity_id).toBe(sub.json.id);
    expect((await row(gone))!.owner_entity_id).toBeNull();

    for (const again of [await link(token, { processRef: session, instanceId: sub.json.id }), await upload(token, session), await remove(token, session, a)]) {
      expect(again.status, again.text).toBe(409);
      expect(again.json.code).toBe('embed-attachments-linked');
    }
  });

  it('link refuses (404) an instance that is unknown, of another processRef, of another form, or another tenant', async () => {
    const session = newSession();
    await upload(token, session);
    const elsewhere = await submit(token, newSession());
    const { token: secondForm } = await publishedForm(ctx, t.asOwner);
    const ofOtherForm = await submit(secondForm, session);
    const ofOtherTenant = await submit(otherToken, session);
    for (const instanceId of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', elsewhere.json.id, ofOtherForm.json.id, ofOtherTenant.json.id]) {
      const r = await link(token, { processRef: session, instanceId });
      expect(r.status, r.text).toBe(404);
      expect(r.json.code).toBe('form-instance-not-found');
    }
    const sub = await submit(token, session);
    expect((await link(token, { processRef: session, instanceId: sub.json.id })).status).toBe(200);
  });

  it('parallel links of one session: exactly one wins', async () => {
    for (let round = 0; round < 3; round++) {
      const session = newSession();
      await upload(token, session);
      const sub = await submit(token, session);
      const results = await Promise.all(Array.from({ length: 5 }, () => link(token, { processRef: session, instanceId: sub.json.id })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    }
  });
});
