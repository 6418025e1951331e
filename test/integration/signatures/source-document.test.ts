import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp, type Who } from '../../support/app';
import { ResponseRecorder, testS3Client } from '../../support/documents';
import { expectProblem } from '../../support/fixtures';
import { makePdf, makeSignedPdf, pdfUpload, seedDefinitionTenant, SIG_BASE, validSigningSchema } from '../../support/signatures';

const CAP = 64 * 1024;

/** The source PDF: checked with pdf-lib, stored in the real document store (S3), streamed back. */
describe('signature definitions: the source PDF', () => {
  const ctx = useTestApp({ 'signatures.source-pdf-max-bytes': CAP, deps: { s3: testS3Client() } });
  const api = client(ctx);
  const recorder = new ResponseRecorder();
  let t: Awaited<ReturnType<typeof seedDefinitionTenant>>;
  let editor: Who;

  beforeAll(async () => {
    t = await seedDefinitionTenant(ctx, 'SIGNATURES');
    editor = t.as('editor');
  });

  const documentsOf = async (id: string) => {
    const rows = (await ctx.db.db.execute(sql`select count(*)::int as n from documents where owner_entity_id = ${id}`)) as unknown as Array<{ n: number }>;
    return rows[0]!.n;
  };
  const create = async (who: Who = editor, draftSchema?: unknown) => {
    const r = await api.post(SIG_BASE, who, { name: 'Contract', draftSchema });
    expect(r.status, r.text).toBe(201);
    return r.json as { id: string; version: number };
  };
  const upload = async (who: Who, id: string, data: Buffer, opts: { filename?: string; name?: string } = {}) =>
    recorder.record('upload', await ctx.app.request(`${SIG_BASE}/${id}/document`, pdfUpload(who, data, opts)));
  const fetchDoc = async (who: Who, id: string, key: string) => {
    const headers: Record<string, string> = { 'X-User-Id': who.user };
    if (who.tenant) headers['X-Tenant-Id'] = who.tenant;
    return recorder.record('fetch', await ctx.app.request(`${SIG_BASE}/${id}/document/${key}`, { headers }));
  };

  it('answers { key, name, pageCount }, sets the draft document (audited) and streams the bytes back unchanged', async () => {
    const d = await create(editor, { ...validSigningSchema(3), document: { name: 'placeholder' } });
    const pdf = await makePdf(3);
    const r = await upload(editor, d.id, pdf, { filename: 'offer letter.pdf' });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toEqual({ key: expect.any(String), name: 'offer letter.pdf', pageCount: 3 });
    const read = (await api.get(`${SIG_BASE}/${d.id}`, editor)).json;
    expect(read.draftSchema.document).toEqual(r.json);
    expect(read.version).toBe(d.version + 1);
    expect(read.problems).toEqual([]);
    const audit = (await api.get(`${SIG_BASE}/${d.id}/audit`, editor)).json.items;
    expect(audit[0]).toMatchObject({ action: 'document_uploaded', detail: r.json, actor: 'editor' });

    const back = await fetchDoc(t.as('reader'), d.id, r.json.key);
    expect(back.status).toBe(200);
    expect(back.headers.get('content-type')).toBe('application/pdf');
    expect(back.body.equals(pdf)).toBe(true);
    const [row] = (await ctx.db.db.execute(sql`select kind, capability, owner_entity_id, status from documents where id = ${r.json.key}`)) as unknown as Array<Record<string, string>>;
    expect(row).toEqual({ kind: 'SIGNATURE_ATTACHMENT', capability: 'SIGNATURES', owner_entity_id: d.id, status: 'READY' });
  });

  it('a draft saved without its document block keeps the uploaded PDF; one that sends document replaces it', async () => {
    const d = await create(editor, validSigningSchema(2));
    const up = await upload(editor, d.id, await makePdf(2));
    expect(up.status, up.text).toBe(201);
    const before = (await api.get(`${SIG_BASE}/${d.id}`, editor)).json;
    const { document: _uploaded, ...withoutDocument } = before.draftSchema;
    const saved = await api.put(`${SIG_BASE}/${d.id}/draft`, editor, { draftSchema: { ...withoutDocument, fields: [] }, version: before.version });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.problems.map((p: { path: string }) => p.path)).not.toContain('document.key');
    const kept = (await api.get(`${SIG_BASE}/${d.id}`, editor)).json;
    expect(kept.draftSchema.document).toEqual(up.json);
    expect(kept.draftSchema.fields).toEqual([]);
    const replaced = await api.put(`${SIG_BASE}/${d.id}/draft`, editor, { draftSchema: { ...kept.draftSchema, document: { name: 'Renamed' } }, version: kept.version });
    expect(replaced.status, replaced.text).toBe(200);
    expect((await api.get(`${SIG_BASE}/${d.id}`, editor)).json.draftSchema.document).toEqual({ name: 'Renamed' });
  });

  it('a page count below a field page makes that field an error-level problem', async () => {
    const d = await create(editor, validSigningSchema(3));
    const r = await upload(editor, d.id, await makePdf(2));
    expect(r.status, r.text).toBe(201);
    const read = (await api.get(`${SIG_BASE}/${d.id}`, editor)).json;
    expect(read.problems).toEqual([{ path: 'fields.2.page', level: 'error', message: 'page 3 is out of range: the document has 2 pages' }]);
    expectProblem(await api.post(`${SIG_BASE}/${d.id}/versions`, editor), 422, 'draft-invalid');
  });

  it('refuses a page whose rotation is not a multiple of 360 with "rotated pages are not supported"; 360 is fine', async () => {
    const d = await create();
    for (const angle of [90, 180, 270, -90]) {
      const r = await upload(editor, d.id, await makePdf(3, { 2: angle }));
      expectProblem(r, 400, 'pdf-invalid');
      expect(r.json.detail).toBe('rotated pages are not supported');
      expect(r.json.page).toBe(3);
    }
    expect((await upload(editor, d.id, await makePdf(2, { 1: 360 }))).status).toBe(201);
  });

  it('refuses encrypted, signed, unparsable and non-PDF files with a clear 400, storing nothing', async () => {
    const d = await create();
    const cases: Array<[Buffer, RegExp]> = [
      [await makePdf(1, {}, { encrypt: true }), /^Encrypted PDFs are not supported/],
      [(await makePdf(2)).subarray(0, 300), /^The PDF cannot be parsed/],
      [Buffer.from('%PDF-1.7\nnothing else'), /PDF/],
      [Buffer.from('GIF89a not a pdf'), /^The file is not a PDF$/],
      [await makeSignedPdf(), /^Signed PDFs are not supported/],
    ];
    for (const [data, detail] of cases) {
      const r = await upload(editor, d.id, data);
      expectProblem(r, 400, 'pdf-invalid');
      expect(r.json.detail).toMatch(detail);
    }
    expect(await documentsOf(d.id)).toBe(0);
  });

  it('the envelope: not multipart 415, no part named file 400, above the size cap 413', async () => {
    const d = await create();
    const json = await api.post(`${SIG_BASE}/${d.id}/document`, editor, { file: 'x' });
    expectProblem(json, 415, 'multipart-required');
    expectProblem(await upload(editor, d.id, await makePdf(1), { name: 'pdf' }), 400, 'file-part-missing');
    const big = Buffer.concat([await makePdf(1), Buffer.alloc(CAP, 0x20)]);
    expectProblem(await upload(editor, d.id, big), 413, 'document-too-large');
    const huge = Buffer.concat([await makePdf(1), Buffer.alloc(CAP * 3, 0x20)]);
    expectProblem(await upload(editor, d.id, huge), 413, 'document-too-large');
  });

  it('a key of another definition, an unknown key, another tenant and a reader writing are refused', async () => {
    const a = await create();
    const b = await create();
    const stored = await upload(editor, a.id, await makePdf(1));
    expect(stored.status).toBe(201);
    expectProblem(await fetchDoc(editor, b.id, stored.json.key), 404, 'source-document-not-found');
    expectProblem(await fetchDoc(editor, a.id, '00000000-0000-4000-8000-000000000000'), 404, 'source-document-not-found');
    const foreign = await seedDefinitionTenant(ctx, 'SIGNATURES');
    expectProblem(await fetchDoc(foreign.asOwner, a.id, stored.json.key), 404, 'definition-not-found');
    expectProblem(await upload(foreign.asOwner, a.id, await makePdf(1)), 404, 'definition-not-found');
    expectProblem(await upload(t.as('reader'), a.id, await makePdf(1)), 403, 'capability-write-required');
    expectProblem(await fetchDoc(t.as('outsider'), a.id, stored.json.key), 403, 'capability-not-granted');
  });

  it("another user's fresh lock refuses the upload (409) before anything is stored", async () => {
    const d = await create();
    expect((await api.post(`${SIG_BASE}/${d.id}/checkout`, t.as('other'))).status).toBe(200);
    expectProblem(await upload(editor, d.id, await makePdf(1)), 409, 'definition-locked');
    expect(await documentsOf(d.id)).toBe(0);
  });

  it('no response carried a storage key', async () => {
    await recorder.expectNoStorageKeys(ctx);
  });
});
