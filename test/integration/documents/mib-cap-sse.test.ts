// The cap at MiB scale (a file at the cap spans two S3 multipart parts), and server-side
// encryption by setting (docstore.sse=AES256).
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { docApi, documentRow, formFields, patterned, ResponseRecorder, s3State, seedDocTenant, testS3Client } from '../../support/documents';
import { expectProblem } from '../../support/fixtures';

const MIB = 1024 * 1024;
const CAP = 6 * MIB;
// The SDK's own default (CRC32 on every upload, aws-chunked when streamed) end to end; the
// other document tests run the platform default (checksums only where required).
const s3 = testS3Client({ 's3.request-checksums': 'when-supported' });
const data = patterned(CAP, 5);
const sha = createHash('sha256').update(data).digest('hex');

describe('MiB-scale cap (6 MiB, multipart) with SSE AES256', () => {
  const ctx = useTestApp({ 'docstore.max-bytes': CAP, 'docstore.sse': 'AES256', deps: { s3 } });
  const rec = new ResponseRecorder();
  const api = docApi(() => ctx.app, rec, INTERNAL_KEY);
  const bucket = () => ctx.settings['s3.bucket'];
  let t: Awaited<ReturnType<typeof seedDocTenant>>;
  let atCap: string;

  beforeAll(async () => {
    t = await seedDocTenant(ctx);
  });

  for (const contentLength of [true, false]) {
    const how = contentLength ? 'with Content-Length' : 'without Content-Length';

    it(`stores exactly ${CAP} bytes ${how} (two multipart parts), SHA-256 computed on the stream`, async () => {
      const res = await api.upload(t.as('writer'), { fields: formFields(`mib-ok-${contentLength}`), file: { filename: 'big.bin', data } }, { contentLength, chunkBytes: 64 * 1024 });
      expect(res.status, res.text).toBe(201);
      expect(res.json).toMatchObject({ sizeBytes: CAP, sha256: sha, status: 'READY' });
      atCap = res.json.id;
    });

    it(`answers 413 for ${CAP + 1} bytes ${how}; the multipart upload is aborted, nothing stored`, async () => {
      const processRef = `mib-over-${contentLength}`;
      const res = await api.upload(t.as('writer'), { fields: formFields(processRef), file: { filename: 'big.bin', data: patterned(CAP + 1, 6) } }, { contentLength, chunkBytes: 64 * 1024 });
      expectProblem(res, 413, 'document-too-large');
      expect(await s3State(s3, bucket(), `${t.id}/${processRef}/`)).toEqual({ versions: [], deleteMarkers: [], uploads: [] });
    });
  }

  it('encrypts the stored version with SSE-S3 (AES256)', async () => {
    const row = (await documentRow(ctx, atCap))!;
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket(), Key: `${t.id}/${row.storageKey}`, VersionId: row.storageVersionId! }));
    expect(head.ServerSideEncryption).toBe('AES256');
    expect(head.ContentLength).toBe(CAP);
  });

  it('downloads the whole file and a range across the 5 MiB part boundary byte-exact', async () => {
    const whole = await api.get(`/api/documents/${atCap}/content`, t.as('writer'));
    expect(whole.status).toBe(200);
    expect(createHash('sha256').update(whole.body).digest('hex')).toBe(sha);
    const from = 5 * MIB - 1000;
    const part = await api.get(`/api/documents/${atCap}/content`, t.as('writer'), { Range: `bytes=${from}-${from + 1999}` });
    expect(part.status).toBe(206);
    expect(part.body.equals(data.subarray(from, from + 2000))).toBe(true);
  });

  it('storage-key leak check: no response of this file carried a storage key', async () => {
    await rec.expectNoStorageKeys(ctx);
  });
});
