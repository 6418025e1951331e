// Download through the proxy: the pinned version streamed from real S3, single Range → 206
// byte-exact, unsatisfiable → 416, several ranges → 200 whole, and the state rules 409/423.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { docApi, documentRow, formFields, patterned, ResponseRecorder, seedDocTenant, testS3Client } from '../../support/documents';
import { expectProblem, seedTenant } from '../../support/fixtures';

const s3 = testS3Client();
const N = 50_000;
const data = patterned(N, 11);
const NAME = 'Quarterly "report" – Q1.pdf';

describe('document download (proxy ← S3)', () => {
  const ctx = useTestApp({ 'docstore.max-bytes': 64 * 1024, deps: { s3 } });
  const rec = new ResponseRecorder();
  const api = docApi(() => ctx.app, rec, INTERNAL_KEY);
  let t: Awaited<ReturnType<typeof seedDocTenant>>;
  let id: string;
  const content = () => `/api/documents/${id}/content`;
  const get = (headers: Record<string, string> = {}, user = 'writer') => api.get(content(), t.as(user), headers);

  beforeAll(async () => {
    t = await seedDocTenant(ctx);
    const up = await api.upload(t.as('writer'), {
      fields: formFields('case-dl'),
      file: { filename: NAME, rawDisposition: `filename*=UTF-8''${encodeURIComponent(NAME)}`, data, contentType: 'application/pdf' },
    });
    expect(up.status, up.text).toBe(201);
    id = up.json.id;
  });

  it('streams the whole document with Content-Type, Content-Length, ETag and Content-Disposition', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body.equals(data)).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe(String(N));
    expect(res.headers.get('etag')).toBe(`"${createHash('sha256').update(data).digest('hex')}"`);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Quarterly _report_ _ Q1.pdf"; filename*=UTF-8''Quarterly%20%22report%22%20%E2%80%93%20Q1.pdf`,
    );
    expect(res.headers.get('content-range')).toBeNull();
  });

  it('lets a read grant download (guard: read)', async () => {
    expect((await get({}, 'reader')).status).toBe(200);
  });

  describe('one Range gives 206 with byte-exact bodies', () => {
    const cases: Array<[string, string, number, number]> = [
      ['bytes=a-b', 'bytes=100-1099', 100, 1099],
      ['first byte', 'bytes=0-0', 0, 0],
      ['last byte', `bytes=${N - 1}-${N - 1}`, N - 1, N - 1],
      ['bytes=a- (to the end)', 'bytes=49000-', 49_000, N - 1],
      ['bytes=-n (the last n)', 'bytes=-500', N - 500, N - 1],
      ['an end past the size is clipped', `bytes=40000-${N + 1000}`, 40_000, N - 1],
      ['a suffix longer than the document is the whole document', `bytes=-${N * 2}`, 0, N - 1],
    ];
    for (const [why, range, start, end] of cases) {
      it(`${why}: ${range}`, async () => {
        const res = await get({ Range: range });
        expect(res.status).toBe(206);
        expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${N}`);
        expect(res.headers.get('content-length')).toBe(String(end - start + 1));
        expect(res.body.equals(data.subarray(start, end + 1))).toBe(true);
      });
    }
  });

  describe('unsatisfiable ranges give 416 with Content-Range bytes */size', () => {
    for (const range of [`bytes=${N}-`, `bytes=${N + 5}-${N + 10}`, 'bytes=-0', `bytes=${N}-${N}, ${N + 1}-`]) {
      it(range, async () => {
        const res = await get({ Range: range });
        expectProblem(res, 416, 'range-not-satisfiable');
        expect(res.headers.get('content-range')).toBe(`bytes */${N}`);
      });
    }
  });

  it('answers several ranges with 200 and the whole body (documented choice)', async () => {
    const res = await get({ Range: 'bytes=0-1,5-6' });
    expect(res.status).toBe(200);
    expect(res.body.equals(data)).toBe(true);
  });

  it('ignores a malformed or non-bytes Range (200 whole)', async () => {
    for (const range of ['items=0-1', 'bytes=5-2', 'bytes=abc', 'bytes=1-2-3']) {
      const res = await get({ Range: range });
      expect(res.status, range).toBe(200);
      expect(res.body.length).toBe(N);
    }
  });

  it('honours If-Range: the current ETag keeps the range, another one sends the whole body', async () => {
    const etag = (await get()).headers.get('etag')!;
    expect((await get({ Range: 'bytes=0-9', 'If-Range': etag })).status).toBe(206);
    const stale = await get({ Range: 'bytes=0-9', 'If-Range': '"0000"' });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(N);
  });

  it('pins the stored version: a newer object at the same key never leaks into whole or ranged reads', async () => {
    const row = await documentRow(ctx, id);
    await s3.send(new PutObjectCommand({ Bucket: ctx.settings['s3.bucket'], Key: `${t.id}/${row!.storageKey}`, Body: Buffer.from('overwritten!') }));
    expect((await get()).body.equals(data)).toBe(true);
    const part = await get({ Range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(part.body.equals(data.subarray(10, 20))).toBe(true);
  });

  describe('state rules', () => {
    const authorize = async (processRef: string) => {
      const res = await api.internal('POST', '/authorize', t.as('writer'), {
        processRef,
        kind: 'FORM_ATTACHMENT',
        capability: 'FORMS',
        filename: 'p.pdf',
        contentType: 'application/pdf',
      });
      expect(res.status, res.text).toBe(201);
      return res.json as { docId: string; version: number };
    };

    it('409 document-not-ready for a PENDING document', async () => {
      const a = await authorize('case-pending');
      expectProblem(await api.get(`/api/documents/${a.docId}/content`, t.as('writer')), 409, 'document-not-ready');
    });

    it('423 document-quarantined for a QUARANTINED document (with or without Range)', async () => {
      const a = await authorize('case-quarantined');
      const fin = await api.internal('POST', `/${a.docId}/finalize`, t.as('writer'), {
        version: a.version,
        sizeBytes: 10,
        sha256: 'a'.repeat(64),
        storageVersionId: 'v-1',
        scan: 'INFECTED',
        signature: 'Test.Marker',
      });
      expect(fin.status, fin.text).toBe(200);
      expect(fin.json.status).toBe('QUARANTINED');
      expectProblem(await api.get(`/api/documents/${a.docId}/content`, t.as('writer')), 423, 'document-quarantined');
      expectProblem(await api.get(`/api/documents/${a.docId}/content`, t.as('writer'), { Range: 'bytes=0-1' }), 423, 'document-quarantined');
    });

    it('409 document-not-ready once the document is DELETED', async () => {
      const up = await api.upload(t.as('writer'), { fields: formFields('case-del'), file: { filename: 'd.txt', data: Buffer.from('d') } });
      expect((await api.del(`/api/documents/${up.json.id}`, t.as('writer'))).status).toBe(200);
      expectProblem(await api.get(`/api/documents/${up.json.id}/content`, t.as('writer')), 409, 'document-not-ready');
    });
  });

  it('403 capability-not-granted for a member without a read grant', async () => {
    expectProblem(await get({}, 'nobody'), 403, 'capability-not-granted');
  });

  it("404 document-not-found for another tenant's document, even for a writer there", async () => {
    const other = await seedTenant(ctx, { members: ['writer'], subscribe: ['FORMS'], grants: [{ user: 'writer', code: 'FORMS', level: 'read-write' }] });
    expectProblem(await api.get(content(), other.as('writer')), 404, 'document-not-found');
    expectProblem(await api.get(content(), other.as('writer'), { Range: 'bytes=0-1' }), 404, 'document-not-found');
  });

  it('404 for an unknown id and 400 for a malformed one', async () => {
    expectProblem(await api.get(`/api/documents/${randomUUID()}/content`, t.as('writer')), 404, 'document-not-found');
    expectProblem(await api.get('/api/documents/not-a-uuid/content', t.as('writer')), 400, 'validation-failed');
  });

  it('storage-key leak check: no response of this file carried a storage key', async () => {
    await rec.expectNoStorageKeys(ctx);
  });
});
