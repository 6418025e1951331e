// storeDocument without HTTP in front: what an activity (a sealed PDF) or a public route (a
// signer's mark) calls with a byte stream and a service principal. The whole pipeline runs
// (authorize, cap and hash, S3, scan off and retain, finalize); any failure while the bytes go in
// discards the PENDING row and what reached storage. Both registry modes carry the principal.
import { GetObjectCommand, GetObjectRetentionCommand, type UploadPartCommandInput } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpRegistryClient } from '../../../api/documents/http-registry-client';
import { startServer, type RunningServer } from '../../../api/server';
import { physicalKey } from '../../../domain/documents/storage-key';
import { createObjectStore } from '../../../integrations/docstore/object-store';
import { createScanner } from '../../../integrations/docstore/scanner';
import { DocumentRegistry } from '../../../services/documents/document-registry';
import type { SignerCaller, WorkflowCaller } from '../../../services/documents/registry-caller';
import type { RegistryClient } from '../../../services/documents/registry-client';
import { storeDocument, type StoreDocumentDeps } from '../../../services/documents/store-document';
import { UploadSlots } from '../../../services/documents/upload-slots';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { documentRow, patterned, s3State, seedDocTenant, testS3Client } from '../../support/documents';
import { uniqueId } from '../../support/fixtures';

const MIB = 1024 * 1024;
const CAP = 8 * MIB;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const chunks = (data: Buffer, size = 64 * 1024) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
    })(),
  );

async function refusal(p: Promise<unknown>): Promise<{ status?: number; code?: string }> {
  try {
    await p;
  } catch (err) {
    return { status: (err as { status?: number }).status, code: (err as { code?: string }).code };
  }
  throw new Error('expected a refusal, the call succeeded');
}

describe('storeDocument from a byte stream', () => {
  const s3 = testS3Client();
  const streamedParts: number[] = [];
  s3.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'UploadPartCommand' && (args.input as UploadPartCommandInput).Body instanceof Readable) {
        streamedParts.push((args.input as UploadPartCommandInput).ContentLength ?? -1);
      }
      return next(args);
    },
    { step: 'initialize', name: 'recordStreamedParts' },
  );
  const ctx = useTestApp({ 'docstore.max-bytes': CAP, deps: { s3 } });
  let server: RunningServer;
  let t: Awaited<ReturnType<typeof seedDocTenant>>;
  const SIG = uniqueId('sig-req');
  const registries: Record<string, RegistryClient> = {};
  const bucket = () => ctx.settings['s3.bucket'];
  const deps = (registry: RegistryClient, maxBytes = CAP): StoreDocumentDeps => ({
    registry,
    store: createObjectStore(ctx.settings, s3)!,
    scanner: createScanner(ctx.settings),
    uploadSlots: new UploadSlots(2),
    maxBytes,
    now: () => new Date(),
    log: pino({ level: 'silent' }),
  });
  const workflow = (): WorkflowCaller => ({ kind: 'workflow', tenantId: t.id, capability: 'SIGNATURES', workflowId: `signatures:${t.id}:${SIG}` });
  const signer = (): SignerCaller => ({ kind: 'signer', tenantId: t.id, capability: 'SIGNATURES', processRef: SIG, signerId: 'r1' });
  const stored = async (docId: string) => {
    const row = (await documentRow(ctx, docId))!;
    const key = physicalKey(t.id, row.storageKey);
    const out = await s3.send(new GetObjectCommand({ Bucket: bucket(), Key: key, VersionId: row.storageVersionId! }));
    return { row, key, bytes: Buffer.from(await out.Body!.transformToByteArray()) };
  };

  beforeAll(async () => {
    t = await seedDocTenant(ctx);
    server = await startServer(ctx.deps, 0, '127.0.0.1');
    registries['in-process'] = new DocumentRegistry(ctx.deps);
    registries['http'] = new HttpRegistryClient({ baseUrl: `http://127.0.0.1:${server.port}`, internalKey: INTERNAL_KEY });
    await registries['in-process'].processStarted(workflow(), { processRef: SIG, processInstanceId: 'run-store' });
  });
  afterAll(async () => {
    await server?.close();
  });

  describe.each(['in-process', 'http'])('%s registry', (mode) => {
    const reg = () => registries[mode]!;

    it('a workflow stores a sealed PDF: READY, size and SHA-256 from the stream, retained COMPLIANCE, createdBy workflow:<id>', async () => {
      const data = patterned(300_000, 11);
      const view = await storeDocument(deps(reg()), workflow(), {
        processRef: SIG,
        kind: 'GENERIC',
        capability: 'SIGNATURES',
        filename: 'signed.pdf',
        contentType: 'application/pdf',
        body: chunks(data),
      });
      expect(view).toMatchObject({ status: 'READY', scanStatus: 'SKIPPED', sizeBytes: data.length, sha256: sha(data), retentionMode: 'COMPLIANCE' });
      expect(view.createdBy).toBe(`workflow:signatures:${t.id}:${SIG}`);
      const { bytes, key, row } = await stored(view.id);
      expect(bytes.equals(data)).toBe(true);
      const retention = await s3.send(new GetObjectRetentionCommand({ Bucket: bucket(), Key: key, VersionId: row.storageVersionId! }));
      expect(retention.Retention?.Mode).toBe('COMPLIANCE');
    });

    it("a signer stores its mark (a whole buffer as the stream) under its request's processRef", async () => {
      const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), patterned(2_000)]);
      const view = await storeDocument(deps(reg()), signer(), {
        processRef: SIG,
        kind: 'SIGNATURE_ATTACHMENT',
        capability: 'SIGNATURES',
        taskId: 'sign-r1',
        filename: 'mark.png',
        contentType: 'image/png',
        body: Readable.from([png]),
      });
      expect(view).toMatchObject({ status: 'READY', createdBy: 'signer:r1', taskId: 'sign-r1', sizeBytes: png.length });
      expect((await stored(view.id)).bytes.equals(png)).toBe(true);
    });

    it('a refused caller stores nothing: the guard answers before a byte is read', async () => {
      const body = chunks(patterned(10_000));
      const before = await s3State(s3, bucket(), `${t.id}/${SIG}/`);
      expect(
        await refusal(
          storeDocument(deps(reg()), signer(), { processRef: SIG, kind: 'GENERIC', capability: 'SIGNATURES', filename: 'x.bin', contentType: 'application/octet-stream', body }),
        ),
      ).toEqual({ status: 403, code: 'document-out-of-scope' });
      expect(body.readableFlowing).toBeNull();
      expect(await s3State(s3, bucket(), `${t.id}/${SIG}/`)).toEqual(before);
    });

    it('above the cap: 413 document-too-large, the row discarded (DELETED) and no object kept', async () => {
      const processRef = uniqueId(`cap-${mode}`);
      await reg().processStarted(workflow(), { processRef, processInstanceId: `run-${processRef}` });
      const err = await refusal(
        storeDocument(deps(reg(), 64 * 1024), workflow(), {
          processRef,
          kind: 'GENERIC',
          capability: 'SIGNATURES',
          filename: 'big.pdf',
          contentType: 'application/pdf',
          body: chunks(patterned(64 * 1024 + 1)),
        }),
      );
      expect(err).toEqual({ status: 413, code: 'document-too-large' });
      const rows = await ctx.db.sql`select status from documents where tenant_id = ${t.id} and process_ref = ${processRef}`;
      expect(rows.map((r) => r.status)).toEqual(['DELETED']);
      expect(await s3State(s3, bucket(), `${t.id}/${processRef}/`)).toEqual({ versions: [], deleteMarkers: [], uploads: [] });
    });

    it("a stream that fails mid-way: 503 storage-unavailable unless its envelope explains it; discarded either way", async () => {
      const failing = () =>
        Readable.from(
          (async function* () {
            yield patterned(10_000);
            throw new Error('source went away');
          })(),
        );
      const input = { processRef: SIG, kind: 'SIGNATURE_ATTACHMENT' as const, capability: 'SIGNATURES' as const, filename: 'm.png', contentType: 'image/png' };
      expect(await refusal(storeDocument(deps(reg()), signer(), { ...input, body: failing() }))).toEqual({ status: 503, code: 'storage-unavailable' });
      const explained = new Error('the envelope says why');
      await expect(
        storeDocument(deps(reg()), signer(), { ...input, body: failing(), envelope: { complete: async () => {}, explain: async () => explained } }),
      ).rejects.toBe(explained);
      const rows = await ctx.db.sql`select status from documents where tenant_id = ${t.id} and filename = 'm.png'`;
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(rows.every((r) => r.status === 'DELETED')).toBe(true);
    });

    it("an envelope that fails after the bytes are in: its error is the answer and the stored version is dropped", async () => {
      const processRef = uniqueId(`late-${mode}`);
      await reg().processStarted(workflow(), { processRef, processInstanceId: `run-${processRef}` });
      const late = new Error('a field came after the file');
      await expect(
        storeDocument(deps(reg()), workflow(), {
          processRef,
          kind: 'GENERIC',
          capability: 'SIGNATURES',
          filename: 'late.pdf',
          contentType: 'application/pdf',
          body: chunks(patterned(1_000)),
          envelope: { complete: async () => Promise.reject(late), explain: async () => undefined },
        }),
      ).rejects.toBe(late);
      const rows = await ctx.db.sql`select status from documents where tenant_id = ${t.id} and process_ref = ${processRef}`;
      expect(rows.map((r) => r.status)).toEqual(['DELETED']);
      // Never retained, so every version of the key is gone.
      expect((await s3State(s3, bucket(), `${t.id}/${processRef}/`)).versions).toEqual([]);
    });
  });

  it('with knownMinBytes the first 5 MiB or more stream to S3 as part 1, uncollected', async () => {
    const data = patterned(6 * MIB + 77, 5);
    streamedParts.length = 0;
    const view = await storeDocument(deps(registries['in-process']!), workflow(), {
      processRef: SIG,
      kind: 'GENERIC',
      capability: 'SIGNATURES',
      filename: 'large.pdf',
      contentType: 'application/pdf',
      body: chunks(data),
      knownMinBytes: 6 * MIB,
    });
    expect(view).toMatchObject({ status: 'READY', sizeBytes: data.length, sha256: sha(data) });
    expect(streamedParts).toEqual([6 * MIB]);
    expect((await stored(view.id)).bytes.equals(data)).toBe(true);
  });
});
