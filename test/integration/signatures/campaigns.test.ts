// Signing campaigns end to end on the real parts: PostgreSQL, Temporal (the signatureCeremony
// workflow started by the outbox dispatcher), S3 (source PDF, marks, sealed PDF), the SMTP catcher.
// The production sealer timestamps with the local RFC 3161 stand-in; the sealed PDF is checked by
// qpdf, pdfsig and openssl.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Who } from '../../support/app';
import {
  CAMPAIGNS,
  ceremonySchema,
  eventually,
  publishedDefinition,
  seedSignaturesTenant,
  SIGN_BASE,
  openCampaignWorld,
  useCeremonyApp,
  type CeremonyWorld,
} from '../../support/ceremony';
import { join } from 'node:path';
import { expectProblem } from '../../support/fixtures';
import { checkSealed, expectValidSeal, pdfText } from '../../support/seal';
import { mailTo, waitForMail } from '../../support/mail';
import { newAddress } from '../../support/outbound';
import { PII_SENTINELS } from '../../support/pii-sentinels';
import { makePng, pngWithHeader } from '../../support/png';

describe('signing campaigns', () => {
  const ctx = useCeremonyApp();
  const api = client(ctx);
  let world: CeremonyWorld;
  let t: Awaited<ReturnType<typeof seedSignaturesTenant>>;
  let other: Awaited<ReturnType<typeof seedSignaturesTenant>>;
  let definitionId: string;
  let editor: Who;

  beforeAll(async () => {
    ({ world, t, editor, definitionId } = await openCampaignWorld(ctx));
    other = await seedSignaturesTenant(ctx);
  });
  afterAll(async () => {
    await world?.stop();
  });

  const recipients = () => [
    { signerId: 'employee', name: PII_SENTINELS.name, email: newAddress('emp') },
    { signerId: 'manager', name: 'Mara Manager', email: newAddress('mgr') },
  ];
  const start = async (body: Record<string, unknown> = {}) => {
    const people = recipients();
    const r = await api.post(CAMPAIGNS, editor, { definitionId, recipients: people, variables: { salary: '50000' }, ...body });
    return { r, people };
  };
  const started = async (body: Record<string, unknown> = {}) => {
    const s = await start(body);
    expect(s.r.status, s.r.text).toBe(201);
    return { ...s, id: s.r.json.id as string, token: (signerId: string) => s.r.json.recipients.find((x: { signerId: string }) => x.signerId === signerId).token as string };
  };
  const detail = async (id: string) => (await api.get(`${CAMPAIGNS}/${id}`, editor)).json;
  const signBody = { signaturePng: makePng().toString('base64'), consent: true };

  it('start: 201 with the instance and per recipient a token and signing URL; sequential arming; nothing personal in the answer', async () => {
    const { r, people } = await start();
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ status: 'PENDING', sealStatus: null, version: 1, variables: { salary: '50000' }, timeZone: 'UTC' });
    const [emp, mgr] = r.json.recipients;
    expect(emp).toMatchObject({ signerId: 'employee', status: 'R_PENDING', order: 1 });
    expect(mgr).toMatchObject({ signerId: 'manager', status: 'R_WAITING', order: 2 });
    expect(emp.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(emp.signingUrl).toBe(`${ctx.settings['public.base-url']}/sign/${emp.token}`);
    for (const p of people) {
      expect(r.text).not.toContain(p.email);
      expect(r.text).not.toContain(p.name);
    }
    // Nothing personal in a plain column either.
    const dump = JSON.stringify(await ctx.db.db.execute(sql`select * from signature_recipients where instance_id = ${r.json.id}`));
    for (const p of people) expect(dump).not.toContain(p.email);
    expect(dump).not.toContain(emp.token);
    // The ceremony mails the armed recipient only.
    await waitForMail(people[0]!.email);
    expect(await mailTo(people[1]!.email)).toEqual([]);
  });

  it('start validation: missing, duplicate and unknown roles, missing variables (400), unpublished (409), SMS_OTP (501)', async () => {
    const [emp, mgr] = recipients();
    const cases: [unknown[], Record<string, string>, string][] = [
      [[emp], { salary: '1' }, 'signer role "manager" has no recipient'],
      [[emp, mgr, { ...mgr, email: newAddress() }], { salary: '1' }, 'more than one recipient'],
      [[emp, mgr, { ...mgr, signerId: 'ceo' }], { salary: '1' }, 'unknown signer role "ceo"'],
      [[emp, mgr], {}, 'required variable "salary" is missing'],
    ];
    for (const [people, variables, message] of cases) {
      const r = await api.post(CAMPAIGNS, editor, { definitionId, recipients: people, variables });
      expectProblem(r, 400, 'signing-input-invalid');
      expect(r.json.detail).toContain(message);
    }
    expectProblem(await api.post(CAMPAIGNS, editor, { definitionId, recipients: [emp, mgr], variables: { salary: '1' }, expiresAt: '2001-01-01T00:00:00Z' }), 400, 'signing-input-invalid');
    expectProblem(await api.post(CAMPAIGNS, editor, { definitionId, recipients: [emp, mgr], variables: { salary: '1' }, timeZone: 'Mars/Base' }), 400, 'signing-input-invalid');
    expectProblem(await api.post(CAMPAIGNS, editor, { definitionId, recipients: [{ ...emp, email: 'not-an-address' }, mgr] }), 400, 'validation-failed');
    const draft = await publishedDefinition(ctx, editor, ceremonySchema(), false);
    expectProblem(await api.post(CAMPAIGNS, editor, { definitionId: draft, recipients: [emp, mgr], variables: { salary: '1' } }), 409, 'signature-definition-not-published');
    const sms = await publishedDefinition(ctx, editor, ceremonySchema('sequential', 'SMS_OTP'));
    const r = await api.post(CAMPAIGNS, editor, { definitionId: sms, recipients: [emp, mgr], variables: { salary: '1' } });
    expectProblem(r, 501, 'verification-method-not-available');
    expectProblem(await api.post(CAMPAIGNS, t.as('reader'), { definitionId, recipients: [emp, mgr], variables: { salary: '1' } }), 403);
  });

  it('a two-signer sequential ceremony: the second link is 404 until the first signed, then armed and mailed; COMPLETED, sealed, signed.pdf', async () => {
    const c = await started();
    expectProblem(await api.get(`${CAMPAIGNS}/${c.id}/signed.pdf`, editor), 409, 'signature-state-conflict');
    const mgrLink = await api.get(`${SIGN_BASE}/${c.token('manager')}`, null);
    expectProblem(mgrLink, 404, 'signing-link-not-found');
    const unknown = await api.get(`${SIGN_BASE}/${'x'.repeat(43)}`, null);
    const body = (j: Record<string, unknown>) => ({ ...j, requestId: undefined });
    expect(body(unknown.json)).toEqual(body(mgrLink.json));

    const session = await api.get(`${SIGN_BASE}/${c.token('employee')}`, null, { 'User-Agent': 'ceremony-test' });
    expect(session.status, session.text).toBe(200);
    // What a link holder sees (and the refusal) is kept by no cache.
    expect([session.headers.get('cache-control'), mgrLink.headers.get('cache-control')]).toEqual(['no-store', 'no-store']);
    expect(Buffer.from(session.json.pdfBase64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(session.json).toMatchObject({
      signer: { id: 'employee', label: 'Employee' },
      variables: { salary: '50000' },
      status: 'R_OPENED',
      routing: { mode: 'sequential', order: 1, groups: 2, signedGroups: [] },
    });
    expect(session.json.fields.map((f: { id: string }) => f.id)).toEqual(['f1', 'f2', 'f3', 'f4']);
    expect((await detail(c.id)).status).toBe('OPENED');

    const signed = await api.post(`${SIGN_BASE}/${c.token('employee')}`, null, { ...signBody, fieldValues: { f4: 'Berlin office' } });
    expect(signed.status, signed.text).toBe(200);
    expect(signed.json).toEqual({ signerId: 'employee', status: 'R_SIGNED', instanceStatus: 'OPENED' });
    expectProblem(await api.post(`${SIGN_BASE}/${c.token('employee')}`, null, signBody), 409, 'signature-state-conflict');

    // The ceremony arms the manager and mails the link.
    const [mail] = await waitForMail(c.people[1]!.email);
    expect(mail!.text).toContain(`/sign/${c.token('manager')}`);
    const armed = await api.get(`${SIGN_BASE}/${c.token('manager')}`, null);
    expect(armed.status, armed.text).toBe(200);
    expect(armed.json.routing).toMatchObject({ order: 2, signedGroups: [1] });
    const last = await api.post(`${SIGN_BASE}/${c.token('manager')}`, null, { typedName: 'Mara Manager', consent: true });
    expect(last.json).toMatchObject({ instanceStatus: 'COMPLETED' });
    // Completed: the links are closed.
    expectProblem(await api.get(`${SIGN_BASE}/${c.token('employee')}`, null), 404, 'signing-link-not-found');

    const sealed = await eventually(() => detail(c.id), (d) => d.sealStatus === 'SEALED');
    expect(sealed.events.map((e: { action: string }) => e.action)).toEqual(['created', 'opened', 'consented', 'signed', 'opened', 'consented', 'signed', 'completed', 'sealed']);
    expect(sealed.recipients.every((r: { status: string }) => r.status === 'R_SIGNED')).toBe(true);
    const pdf = await ctx.app.request(`${CAMPAIGNS}/${c.id}/signed.pdf`, { headers: { 'X-User-Id': 'reader', 'X-Tenant-Id': t.id } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const sealedBytes = Buffer.from(await pdf.arrayBuffer());
    expect(sealedBytes.subarray(0, 5).toString()).toBe('%PDF-');
    const checkDir = join(world.sealer.dir, c.id);
    expectValidSeal(await checkSealed(sealedBytes, checkDir, world.sealer.org, world.sealer.tsa));
    // The Certificate of Completion names the instance and the source's SHA-256.
    const certificate = await pdfText(join(checkDir, 'sealed.pdf'));
    expect(certificate).toContain(c.id);
    expect(certificate).toMatch(/[0-9a-f]{64}/);

    // What the sealer was given: the marks of every field, signers, the audit trail with the client.
    const request = world.sealer.requests.find((r) => r.instanceId === c.id)!;
    const byType = Object.fromEntries(request.marks.map((m) => [`${m.type}@${m.page}`, m]));
    expect(byType['SIGNATURE@1']).toHaveProperty('png');
    expect(byType['SIGNATURE@2']).toMatchObject({ typedText: 'Mara Manager' });
    expect(byType['INITIALS@2']).toMatchObject({ typedText: 'MM' });
    expect(byType['NAME@1']).toMatchObject({ text: PII_SENTINELS.name });
    expect(byType['TEXT@1']).toMatchObject({ text: 'Berlin office' });
    expect((byType['DATE@1'] as { text: string }).text).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(request.signers.map((s) => s.signerId)).toEqual(['employee', 'manager']);
    expect(request.events.find((e) => e.action === 'opened')).toMatchObject({ userAgent: 'ceremony-test' });

    // The signature PNG is a SIGNATURES document of the instance, stored by the signer.
    const docs = (await ctx.db.db.execute(sql`select kind, capability, created_by from documents where owner_entity_id = ${c.id} order by created_at`)) as unknown as Record<string, string>[];
    expect(docs).toEqual([
      { kind: 'SIGNATURE_ATTACHMENT', capability: 'SIGNATURES', created_by: 'signer:employee' },
      { kind: 'SIGNATURE_ATTACHMENT', capability: 'SIGNATURES', created_by: expect.stringMatching(/^workflow:signatures:/) },
    ]);
    await eventually(
      async () => (await ctx.db.db.execute(sql`select state from outbox where business_key = ${c.id} and verb = 'start'`)) as unknown as { state: string }[],
      (rows) => rows[0]?.state === 'CLOSED',
    );
  });

  it('parallel routing arms everyone; parallel signing of one token in a loop: exactly one 200', async () => {
    const parallel = await publishedDefinition(ctx, editor, ceremonySchema('parallel'));
    for (let round = 0; round < 3; round++) {
      const people = recipients();
      const r = await api.post(CAMPAIGNS, editor, { definitionId: parallel, recipients: people, variables: { salary: '1' } });
      expect(r.json.recipients.map((x: { status: string }) => x.status)).toEqual(['R_PENDING', 'R_PENDING']);
      const token = r.json.recipients[1].token;
      const answers = await Promise.all(Array.from({ length: 5 }, () => api.post(`${SIGN_BASE}/${token}`, null, { typedName: 'M M', consent: true })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
      const signals = (await ctx.db.db.execute(sql`select count(*)::int as n from outbox where business_key = ${r.json.id} and verb = 'signal'`)) as unknown as { n: number }[];
      expect(signals[0]!.n).toBe(1);
    }
  });

  it('signature input: no consent, no signature, a PNG too large, not a PNG, too many pixels or undecodable, unknown field ids (400)', async () => {
    const c = await started();
    const url = `${SIGN_BASE}/${c.token('employee')}`;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...signBody, consent: false }, 'consent'],
      [{ consent: true }, 'signaturePng'],
      [{ signaturePng: Buffer.from('GIF89a-not-a-png').toString('base64'), consent: true }, 'not a PNG'],
      [{ signaturePng: Buffer.concat([makePng(), Buffer.alloc(ctx.settings['signatures.signature-png-max-bytes'])]).toString('base64'), consent: true }, 'larger than'],
      [{ ...signBody, fieldValues: { f5: 'not mine' } }, 'fieldValues.f5'],
      // A few bytes declaring 30000 × 30000 pixels: refused before anything decodes them.
      [{ signaturePng: pngWithHeader(30000, 30000).toString('base64'), consent: true }, 'at most 4096 a side'],
      [{ ...signBody, initialsPng: pngWithHeader(40, 20, Buffer.from('not deflated pixels')).toString('base64') }, 'initialsPng: the PNG pixels do not inflate'],
    ];
    for (const [body, message] of cases) {
      const r = await api.post(url, null, body);
      expectProblem(r, 400, 'signing-input-invalid');
      expect(r.json.detail).toContain(message);
    }
    expect((await detail(c.id)).recipients[0].status).toBe('R_PENDING');
  });

  it("another tenant's campaign is 404 on every route", async () => {
    const c = await started();
    const stranger = other.asOwner;
    for (const r of [
      await api.get(`${CAMPAIGNS}/${c.id}`, stranger),
      await api.post(`${CAMPAIGNS}/${c.id}/cancel`, stranger),
      await api.post(`${CAMPAIGNS}/${c.id}/seal`, stranger),
      await api.get(`${CAMPAIGNS}/${c.id}/signed.pdf`, stranger),
      await api.post(`${CAMPAIGNS}/${c.id}/recipients/employee/remind`, stranger),
    ]) {
      expectProblem(r, 404, 'signature-instance-not-found');
    }
    expect((await api.get(CAMPAIGNS, stranger)).json.items).toEqual([]);
    expectProblem(await api.post(CAMPAIGNS, stranger, { definitionId, recipients: recipients(), variables: { salary: '1' } }), 404, 'definition-not-found');
    expect((await detail(c.id)).status).toBe('PENDING');
  });

  it('list: newest first, filtered by status and definition, keyset-paged', async () => {
    const a = await started();
    const b = await started();
    const page1 = await api.get(`${CAMPAIGNS}?definitionId=${definitionId}&limit=1`, t.as('reader'));
    expect(page1.json.items.map((i: { id: string }) => i.id)).toEqual([b.id]);
    const page2 = await api.get(`${CAMPAIGNS}?definitionId=${definitionId}&limit=1&cursor=${page1.json.nextCursor}`, t.as('reader'));
    expect(page2.json.items.map((i: { id: string }) => i.id)).toEqual([a.id]);
    const completed = await api.get(`${CAMPAIGNS}?status=COMPLETED`, t.as('reader'));
    expect(completed.json.items.every((i: { status: string }) => i.status === 'COMPLETED')).toBe(true);
    expectProblem(await api.get(`${CAMPAIGNS}?cursor=nope`, t.as('reader')), 400, 'invalid-cursor');
  });

  it('list: following nextCursor visits every campaign once when several share one millisecond', async () => {
    const ids = [(await started()).id, (await started()).id, (await started()).id];
    // One millisecond, three microseconds apart: a cursor that keeps milliseconds only skips rows.
    const list = sql`array[${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)}]`;
    await ctx.db.db.execute(
      sql`update signature_instances set created_at = '2026-03-01T10:00:00.123000Z'::timestamptz + (array_position(${list}, id) * 100) * interval '1 microsecond' where id = any(${list})`,
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await api.get(`${CAMPAIGNS}?definitionId=${definitionId}&limit=1${cursor ? `&cursor=${cursor}` : ''}`, t.as('reader'));
      expect(r.status, r.text).toBe(200);
      seen.push(...r.json.items.map((i: { id: string }) => i.id));
      cursor = r.json.nextCursor;
    } while (cursor);
    expect(seen.filter((id) => ids.includes(id))).toEqual([...ids].reverse());
  });
});
