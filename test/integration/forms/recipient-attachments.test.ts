// The recipient's attachments (/api/public/form-instances/{token}/documents): the access token as
// the credential, files owned by the instance under its case processRef, the per-instance cap
// under parallel uploads, the size cap, the upload budget, isolation between instances of one case
// and between tenants, the state rules, and submit accepting only the instance's own READY files.
import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp, type TestContext } from '../../support/app';
import { multipart, patterned, testS3Client } from '../../support/documents';
import { FILE_RESPONSE_DRAFT, FILE_RESPONSE_ROLES } from '../../support/embed-forms';
import { formsApi, seedFormsTenant } from '../../support/forms';
import { smtpUrl } from '../../support/mail';
import { bearer, openForm, send } from '../../support/outbound';

const CAP = 2;
const P = '/api/public/form-instances';

async function fileForm(ctx: TestContext, who: Parameters<ReturnType<typeof formsApi>['create']>[0]) {
  const forms = formsApi(ctx);
  const def = await forms.create(who, { kind: 'OUTBOUND', draftSchema: FILE_RESPONSE_DRAFT });
  expect((await forms.put(`/api/form-definitions/${def.id}/outbound-config`, who, { roles: FILE_RESPONSE_ROLES })).status).toBe(200);
  expect((await forms.checkIn(who, def.id)).status).toBe(201);
  expect((await forms.step(who, def.id, 'sign-off')).status).toBe(200);
  expect((await forms.step(who, def.id, 'versions/1/publish')).status).toBe(200);
  return def as { id: string };
}

describe('recipient attachments', () => {
  const ctx = useTestApp({
    'mail.smtp-url': smtpUrl(),
    'forms.rate-limit.recipient-per-ip-per-minute': 100_000,
    'forms.rate-limit.attachments-per-ip-per-minute': 100_000,
    'forms.embed-attachments-per-session': CAP,
    'forms.embed-attachment-max-bytes': 16 * 1024,
    deps: { s3: testS3Client() },
  });
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let other: Awaited<ReturnType<typeof seedFormsTenant>>;
  let def: { id: string };
  let otherDef: { id: string };
  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    other = await seedFormsTenant(ctx);
    def = await fileForm(ctx, t.asOwner);
    otherDef = await fileForm(ctx, other.asOwner);
  });

  /** A sent form opened by its recipient: its token and access token. */
  async function opened(body: Record<string, unknown> = {}, owner = t, definitionId = def.id) {
    const { r, email } = await send(ctx, owner.asOwner, definitionId, { prefill: { account: 'EX-1' }, ...body });
    expect(r.status, r.text).toBe(201);
    return { token: r.json.token as string, instanceId: r.json.instanceId as string, access: await openForm(ctx, r.json.token, email) };
  }
  const upload = async (token: string, access: string | undefined, size = 500, filename = 'receipt.pdf') => {
    const m = multipart({ fields: {}, file: { filename, data: patterned(size), contentType: 'application/pdf' } });
    const res = await ctx.app.request(`${P}/${token}/documents`, {
      method: 'POST',
      headers: { ...(access ? bearer(access) : {}), 'Content-Type': m.contentType, 'Content-Length': String(m.length) },
      body: Buffer.concat([m.head, m.data, m.tail]),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined, text };
  };
  const list = (token: string, access: string) => api.get(`${P}/${token}/documents`, null, bearer(access));
  const remove = (token: string, access: string, id: string) => api.del(`${P}/${token}/documents/${id}`, null, bearer(access));
  const row = async (id: string) => (await ctx.db.sql`select process_ref, kind, capability, owner_entity_id, status from documents where id = ${id}`)[0];

  it('upload, list and remove with the access token: a FORM_ATTACHMENT of the instance under its case processRef; submit takes it', async () => {
    const s = await opened();
    const up = await upload(s.token, s.access, 700, 'ticket.pdf');
    expect(up.status, up.text).toBe(201);
    expect(up.json).toMatchObject({ filename: 'ticket.pdf', status: 'READY' });
    expect(Object.keys(up.json).sort()).toEqual(['contentType', 'createdAt', 'filename', 'id', 'scanStatus', 'sizeBytes', 'status']);
    expect(await row(up.json.id)).toMatchObject({ process_ref: `SM-${s.instanceId}`, kind: 'FORM_ATTACHMENT', capability: 'FORMS', owner_entity_id: s.instanceId });
    const second = await upload(s.token, s.access, 300, 'extra.pdf');
    expect((await list(s.token, s.access)).json.items.map((d: { filename: string }) => d.filename)).toEqual(['ticket.pdf', 'extra.pdf']);
    const gone = await remove(s.token, s.access, second.json.id);
    expect(gone.status, gone.text).toBe(200);
    expect(gone.json.status).toBe('DELETED');
    expect((await list(s.token, s.access)).json.items.map((d: { id: string }) => d.id)).toEqual([up.json.id]);
    const twice = await remove(s.token, s.access, second.json.id);
    expect([twice.status, twice.json.code]).toEqual([409, 'document-already-deleted']);

    const done = await api.post(`${P}/${s.token}/submit`, null, { data: { answer: 'Taxi', receipt: [up.json.id] } }, bearer(s.access));
    expect(done.status, done.text).toBe(200);
    expect(done.json.data.receipt).toEqual([up.json.id]);
    // Submitted: readable, no longer changed.
    expect((await list(s.token, s.access)).status).toBe(200);
    const late = await upload(s.token, s.access);
    expect(late.status).toBe(409);
    expect(late.json.code).toBe('instance-state-conflict');
    expect((await remove(s.token, s.access, up.json.id)).json.code).toBe('instance-state-conflict');
  });

  it('the one 404 for a missing or wrong access token and an unknown instance token; 400 for a malformed document id', async () => {
    const s = await opened();
    const unknown = 'A'.repeat(43);
    const answers = [
      await upload(s.token, undefined),
      await upload(s.token, 'x'.repeat(43)),
      await upload(unknown, s.access),
      await api.get(`${P}/${s.token}/documents`, null),
      await api.get(`${P}/${unknown}/documents`, null, bearer(s.access)),
      await api.del(`${P}/${s.token}/documents/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, null, bearer('x'.repeat(43))),
    ];
    for (const a of answers) {
      expect(a.status, a.text).toBe(404);
      expect(a.json.code).toBe('recipient-form-not-found');
    }
    expect(Number((await ctx.db.sql`select count(*)::int as n from documents where owner_entity_id = ${s.instanceId}`)[0]!.n)).toBe(0);
    const bad = await remove(s.token, s.access, 'not-a-uuid');
    expect(bad.status).toBe(400);
  });

  it('two instances filed under one case processRef never see, remove or submit each other\'s files; another tenant\'s document is a 404', async () => {
    const a = await opened({ context: { processRef: 'CASE-77' } });
    const b = await opened({ context: { processRef: 'CASE-77' } });
    const fromA = await upload(a.token, a.access, 400, 'a.pdf');
    expect(fromA.status, fromA.text).toBe(201);
    expect((await row(fromA.json.id))!.process_ref).toBe('CASE-77');
    expect((await list(b.token, b.access)).json.items).toEqual([]);
    const taken = await remove(b.token, b.access, fromA.json.id);
    expect(taken.status).toBe(404);
    expect(taken.json.code).toBe('document-not-found');
    const stolen = await api.post(`${P}/${b.token}/submit`, null, { data: { answer: 'x', receipt: [fromA.json.id] } }, bearer(b.access));
    expect(stolen.status).toBe(400);
    expect(stolen.json).toMatchObject({ code: 'validation-failed', errors: [{ path: 'data.receipt.0', message: expect.stringContaining('not a file uploaded to this form') }] });

    const foreign = await opened({}, other, otherDef.id);
    const theirs = await upload(foreign.token, foreign.access);
    expect(theirs.status).toBe(201);
    expect((await remove(a.token, a.access, theirs.json.id)).status).toBe(404);
    const crossTenant = await api.post(`${P}/${a.token}/submit`, null, { data: { answer: 'x', receipt: [theirs.json.id] } }, bearer(a.access));
    expect(crossTenant.json.errors).toEqual([{ path: 'data.receipt.0', message: expect.any(String) }]);
  });

  it(`the cap of ${CAP} files per instance holds under parallel uploads (409 embed-attachment-cap-reached); a removal gives a slot back`, async () => {
    for (let round = 0; round < 3; round++) {
      const s = await opened();
      const results = await Promise.all(Array.from({ length: 5 }, () => upload(s.token, s.access)));
      expect(results.map((r) => r.status).sort()).toEqual([201, 201, 409, 409, 409]);
      expect(results.find((r) => r.status === 409)!.json.code).toBe('embed-attachment-cap-reached');
      const kept = results.find((r) => r.status === 201)!;
      expect((await remove(s.token, s.access, kept.json.id)).status).toBe(200);
      expect((await upload(s.token, s.access)).status).toBe(201);
    }
  });

  it('413 document-too-large above forms.embed-attachment-max-bytes, and the slot is given back', async () => {
    const s = await opened();
    const big = await upload(s.token, s.access, 17 * 1024);
    expect(big.status, big.text).toBe(413);
    expect(big.json.code).toBe('document-too-large');
    for (let i = 0; i < CAP; i++) expect((await upload(s.token, s.access)).status).toBe(201);
  });
});

describe('recipient attachment upload budget', () => {
  const ctx = useTestApp({
    'mail.smtp-url': smtpUrl(),
    'forms.rate-limit.recipient-per-ip-per-minute': 100_000,
    'forms.rate-limit.attachments-per-token-per-minute': 2,
    deps: { s3: testS3Client() },
  });

  it('per instance token: 429 rate-limited with Retry-After once its budget is spent, before anything is stored', async () => {
    const t = await seedFormsTenant(ctx);
    const def = await fileForm(ctx, t.asOwner);
    const { r, email } = await send(ctx, t.asOwner, def.id, { prefill: { account: 'EX-2' } });
    const access = await openForm(ctx, r.json.token, email);
    const up = async () => {
      const m = multipart({ fields: {}, file: { filename: 'r.pdf', data: patterned(200), contentType: 'application/pdf' } });
      return ctx.app.request(`${P}/${r.json.token}/documents`, {
        method: 'POST',
        headers: { ...bearer(access), 'Content-Type': m.contentType, 'Content-Length': String(m.length) },
        body: Buffer.concat([m.head, m.data, m.tail]),
      });
    };
    expect((await up()).status).toBe(201);
    expect((await up()).status).toBe(201);
    const refused = await up();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { code: string }).code).toBe('rate-limited');
    expect(Number((await ctx.db.sql`select count(*)::int as n from documents where owner_entity_id = ${r.json.instanceId}`)[0]!.n)).toBe(2);
  });
});
