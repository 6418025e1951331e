// The streamed first part: with a Content-Length, all but the last few KiB of a file go to S3
// as one part while they arrive (integrations/docstore/streamed-upload), in both checksum
// modes; its failure paths leave nothing behind; and the proxy over a real socket takes that
// path, answers the errors it can raise, and falls back to lib-storage without Content-Length.
import { GetObjectCommand, type S3Client, type UploadPartCommandInput } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../api/server';
import { HeadNotReached } from '../../../integrations/docstore/head-split';
import { DocumentObjectStore } from '../../../integrations/docstore/object-store';
import { streamedUpload } from '../../../integrations/docstore/streamed-upload';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { docApi, formFields, multipart, patterned, ResponseRecorder, s3State, seedDocTenant, testS3Client } from '../../support/documents';
import { expectProblem } from '../../support/fixtures';

const MIB = 1024 * 1024;
const CAP = 8 * MIB;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const chunks = (data: Buffer, size = 64 * 1024) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
    })(),
  );

/** UploadPart calls seen by a client: part number, declared length, and whether the body streamed. */
function recordParts(s3: S3Client) {
  const parts: Array<{ key: string; part: number; length: number | undefined; streamed: boolean }> = [];
  s3.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'UploadPartCommand') {
        const input = args.input as UploadPartCommandInput;
        parts.push({ key: input.Key!, part: input.PartNumber!, length: input.ContentLength, streamed: input.Body instanceof Readable });
      }
      return next(args);
    },
    { step: 'initialize', name: 'recordUploadParts' },
  );
  return parts;
}

describe('streamed first part', () => {
  const s3 = testS3Client();
  const parts = recordParts(s3);
  const ctx = useTestApp({ 'docstore.max-bytes': CAP, deps: { s3 } });
  const bucket = () => ctx.settings['s3.bucket'];
  const read = async (s3c: S3Client, key: string) => {
    const out = await s3c.send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
    return Buffer.from(await out.Body!.transformToByteArray());
  };

  describe('streamedUpload against S3', () => {
    const crc = testS3Client({ 's3.request-checksums': 'when-supported' });
    const data = patterned(6 * MIB + 1234, 3);

    for (const [mode, client] of [
      ['required', s3],
      ['supported', crc],
    ] as const) {
      it(`stores head and tail byte-exact with checksums when ${mode}`, async () => {
        const key = `streamed/${mode}/with-tail.bin`;
        const out = await streamedUpload(client, { Bucket: bucket(), Key: key, ContentType: 'application/octet-stream' }, chunks(data), 5 * MIB);
        expect(out.VersionId).toBeTruthy();
        expect(sha(await read(client, key))).toBe(sha(data));
      });
    }

    it('stores a body that is exactly the head as one part', async () => {
      const key = 'streamed/exact.bin';
      const exact = data.subarray(0, 5 * MIB + 10);
      await streamedUpload(s3, { Bucket: bucket(), Key: key, ContentType: 'application/octet-stream' }, chunks(exact), exact.length);
      expect(parts.filter((p) => p.key === key)).toEqual([{ key, part: 1, length: exact.length, streamed: true }]);
      expect(sha(await read(s3, key))).toBe(sha(exact));
    });

    it('aborts the multipart upload when the body is shorter than promised', async () => {
      const key = 'streamed/short/a.bin';
      const err = await streamedUpload(s3, { Bucket: bucket(), Key: key, ContentType: 'x/y' }, chunks(data), data.length + 1).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HeadNotReached);
      expect(await s3State(s3, bucket(), 'streamed/short/')).toEqual({ versions: [], deleteMarkers: [], uploads: [] });
    });

    it("aborts the multipart upload and rethrows the body's error mid-stream", async () => {
      const body = new PassThrough();
      const boom = new Error('client went away');
      const upload = streamedUpload(s3, { Bucket: bucket(), Key: 'streamed/broken/a.bin', ContentType: 'x/y' }, body, 6 * MIB);
      body.write(data.subarray(0, 2 * MIB));
      setTimeout(() => body.destroy(boom), 50);
      await expect(upload).rejects.toBe(boom);
      expect(await s3State(s3, bucket(), 'streamed/broken/')).toEqual({ versions: [], deleteMarkers: [], uploads: [] });
    });

    it("rethrows a body's error that arrives while S3 is still creating the upload (no uncaught exception)", async () => {
      const body = new PassThrough();
      const boom = new Error('client went away early');
      const upload = streamedUpload(s3, { Bucket: bucket(), Key: 'streamed/early/a.bin', ContentType: 'x/y' }, body, 6 * MIB);
      body.destroy(boom);
      await expect(upload).rejects.toBe(boom);
      expect(await s3State(s3, bucket(), 'streamed/early/')).toEqual({ versions: [], deleteMarkers: [], uploads: [] });
    });

    it('refuses a head S3 cannot take as a non-final part', async () => {
      await expect(streamedUpload(s3, { Bucket: bucket(), Key: 'streamed/tiny', ContentType: 'x/y' }, chunks(data), MIB)).rejects.toThrow(RangeError);
    });

    it('DocumentObjectStore streams only with a known minimum of 5 MiB', async () => {
      const store = new DocumentObjectStore({ s3, bucket: bucket(), sse: 'none' });
      await store.upload('streamed/store/known.bin', chunks(data), 'x/y', 5 * MIB + 7);
      await store.upload('streamed/store/unknown.bin', chunks(data), 'x/y');
      expect(parts.filter((p) => p.key.startsWith('streamed/store/'))).toEqual([
        { key: 'streamed/store/known.bin', part: 1, length: 5 * MIB + 7, streamed: true },
        { key: 'streamed/store/known.bin', part: 2, length: data.length - 5 * MIB - 7, streamed: false },
        { key: 'streamed/store/unknown.bin', part: 1, length: undefined, streamed: false },
        { key: 'streamed/store/unknown.bin', part: 2, length: undefined, streamed: false },
      ]);
    });
  });

  describe('proxy over a listening socket (cap 8 MiB)', () => {
    const rec = new ResponseRecorder();
    let server: RunningServer;
    let t: Awaited<ReturnType<typeof seedDocTenant>>;
    const api = docApi(() => `http://127.0.0.1:${server.port}`, rec, INTERNAL_KEY);
    const nothingStored = async (processRef: string) =>
      expect(await s3State(s3, bucket(), `${t.id}/${processRef}/`)).toEqual({ versions: [], deleteMarkers: [], uploads: [] });
    const partsUnder = (processRef: string) => parts.filter((p) => p.key.startsWith(`${t.id}/${processRef}/`));

    beforeAll(async () => {
      t = await seedDocTenant(ctx);
      server = await startServer({ ...ctx.deps, settings: ctx.settings }, 0, '127.0.0.1');
    });
    afterAll(async () => {
      await server.close();
    });

    it('streams a 7 MiB file with Content-Length as one part plus a small tail; 201 with its SHA-256', async () => {
      const data = patterned(7 * MIB, 11);
      const res = await api.upload(t.as('writer'), { fields: formFields('st-ok'), file: { filename: 'big.bin', data } });
      expect(res.status, res.text).toBe(201);
      expect(res.json).toMatchObject({ sizeBytes: data.length, sha256: sha(data), status: 'READY' });
      const [head, tail, ...more] = partsUnder('st-ok');
      expect(more).toEqual([]);
      expect(head).toMatchObject({ part: 1, streamed: true });
      expect(head!.length).toBeGreaterThan(data.length - 256 * 1024);
      expect(tail).toMatchObject({ part: 2, streamed: false, length: data.length - head!.length! });
      const back = await api.get(`/api/documents/${res.json.id}/content`, t.as('writer'));
      expect(sha(back.body)).toBe(sha(data));
    });

    it('without Content-Length falls back to lib-storage 5 MiB parts, same result', async () => {
      const data = patterned(7 * MIB, 12);
      const res = await api.upload(t.as('writer'), { fields: formFields('st-chunked'), file: { filename: 'big.bin', data } }, { contentLength: false, chunkBytes: 64 * 1024 });
      expect(res.status, res.text).toBe(201);
      expect(res.json).toMatchObject({ sizeBytes: data.length, sha256: sha(data) });
      expect(partsUnder('st-chunked').map((p) => p.streamed)).toEqual([false, false]);
    });

    it('answers 413 at cap + 1 on the streamed path; the multipart upload is aborted', async () => {
      const res = await api.upload(t.as('writer'), { fields: formFields('st-over'), file: { filename: 'o.bin', data: patterned(CAP + 1, 13) } });
      expectProblem(res, 413, 'document-too-large');
      expect(partsUnder('st-over')[0]).toMatchObject({ part: 1, streamed: true });
      await nothingStored('st-over');
    });

    it('answers 400 field-after-file when a field follows a large file; nothing stored', async () => {
      const res = await api.upload(t.as('writer'), {
        fields: formFields('st-late'),
        file: { filename: 'l.bin', data: patterned(6 * MIB, 14) },
        trailingFields: { note: 'x'.repeat(200 * 1024) },
      });
      // The file ends 200 KiB short of its promised head: the late field, not the short head, is the error.
      expectProblem(res, 400, 'field-after-file');
      await nothingStored('st-late');
    });

    // The file's length is bounded from below with 64 KiB (plus what the parser has not reached
    // yet) to spare for an epilogue; a 1 MiB one cannot fit.
    it('answers 400 multipart-trailing-data for a 1 MiB epilogue; a 2-byte one is fine', async () => {
      const big = await api.upload(t.as('writer'), { fields: formFields('st-epi'), file: { filename: 'e.bin', data: patterned(6 * MIB, 15) }, epilogue: 'z'.repeat(MIB) });
      expectProblem(big, 400, 'multipart-trailing-data');
      await nothingStored('st-epi');
      const small = await api.upload(t.as('writer'), { fields: formFields('st-epi-ok'), file: { filename: 'e.bin', data: patterned(6 * MIB, 15) }, epilogue: '\r\n' });
      expect(small.status, small.text).toBe(201);
    });

    it('leaves nothing when the client goes away mid-stream', async () => {
      const m = multipart({ fields: formFields('st-gone'), file: { filename: 'g.bin', data: patterned(6 * MIB, 16) } });
      const req = request({
        host: '127.0.0.1',
        port: server.port,
        path: '/api/documents',
        method: 'POST',
        headers: { 'X-User-Id': 'writer', 'X-Tenant-Id': t.id, 'Content-Type': m.contentType, 'Content-Length': m.length },
      });
      req.on('error', () => {});
      req.write(m.head);
      req.write(m.data.subarray(0, 3 * MIB));
      await expect.poll(() => partsUnder('st-gone').length, { timeout: 10_000 }).toBe(1);
      req.destroy();
      await expect.poll(async () => (await s3State(s3, bucket(), `${t.id}/st-gone/`)).uploads, { timeout: 10_000 }).toEqual([]);
      await nothingStored('st-gone');
    });

    it('storage-key leak check: no response of this file carried a storage key', async () => {
      await rec.expectNoStorageKeys(ctx);
    });
  });
});
