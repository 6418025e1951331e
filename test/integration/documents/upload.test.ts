// Upload through the proxy: streaming to real S3 (SeaweedFS), the size cap on the stream with
// and without Content-Length, the guard before any byte is stored, and the FORMS carve-out.
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import {
  docApi,
  documentRow,
  formFields,
  patterned,
  ResponseRecorder,
  s3State,
  seedDocTenant,
  testS3Client,
} from '../../support/documents';
import { expectProblem, uniqueId } from '../../support/fixtures';

const CAP = 64 * 1024;
const s3 = testS3Client();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('document upload (proxy → S3, cap 64 KiB)', () => {
  const ctx = useTestApp({ 'docstore.max-bytes': CAP, deps: { s3 } });
  const rec = new ResponseRecorder();
  const api = docApi(() => ctx.app, rec, INTERNAL_KEY);
  const bucket = () => ctx.settings['s3.bucket'];
  let t: Awaited<ReturnType<typeof seedDocTenant>>;

  beforeAll(async () => {
    t = await seedDocTenant(ctx);
  });

  /** Nothing at all was stored under this processRef: no version, no marker, no open multipart upload. */
  const expectNothingStored = async (processRef: string) => {
    expect(await s3State(s3, bucket(), `${t.id}/${processRef}/`)).toEqual({ versions: [], deleteMarkers: [], uploads: [] });
  };

  it('stores a FORMS attachment and answers 201 with the document view (size and SHA-256 from the stream)', async () => {
    const data = patterned(40_000);
    const res = await api.upload(t.as('writer'), {
      fields: formFields('case-up-1', { taskId: 'task-1', ownerEntityId: 'form-inst-1' }),
      file: { filename: 'Scan 1.pdf', data, contentType: 'application/pdf' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/documents/${res.json.id}`);
    expect(res.json).toMatchObject({
      tenantId: t.id,
      processRef: 'case-up-1',
      taskId: 'task-1',
      ownerEntityId: 'form-inst-1',
      kind: 'FORM_ATTACHMENT',
      capability: 'FORMS',
      filename: 'Scan 1.pdf',
      contentType: 'application/pdf',
      sizeBytes: 40_000,
      sha256: sha(data),
      status: 'READY',
      scanStatus: 'SKIPPED',
      createdBy: 'writer',
      deletedAt: null,
    });
    expect(Object.keys(res.json)).not.toContain('storageKey');
    const row = await documentRow(ctx, res.json.id);
    expect(row!.storageKey).toBe(`case-up-1/${res.json.id}-scan-1.pdf`);
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket(), Key: `${t.id}/${row!.storageKey}`, VersionId: row!.storageVersionId! }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(data)).toBe(true);
  });

  it('keeps the original filename for display while the key uses its slug', async () => {
    const res = await api.upload(t.as('writer'), {
      fields: formFields('case-up-2'),
      file: { filename: 'Résumé (final) ünïcode.PDF', data: Buffer.from('x') },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.filename).toBe('Résumé (final) ünïcode.PDF');
    expect((await documentRow(ctx, res.json.id))!.storageKey).toBe(`case-up-2/${res.json.id}-resume-final-unicode.pdf`);
  });

  it('stores an empty file (0 bytes, SHA-256 of nothing)', async () => {
    const res = await api.upload(t.as('writer'), { fields: formFields('case-up-0'), file: { filename: 'empty.txt', data: Buffer.alloc(0) } });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ sizeBytes: 0, sha256: sha(Buffer.alloc(0)), status: 'READY' });
  });

  describe('size cap docstore.max-bytes, counted on the stream', () => {
    for (const contentLength of [true, false]) {
      const how = contentLength ? 'with Content-Length' : 'without Content-Length (chunked stream)';

      it(`accepts a file of exactly the cap ${how}`, async () => {
        const data = patterned(CAP, 3);
        const res = await api.upload(t.as('writer'), { fields: formFields(`cap-ok-${contentLength}`), file: { filename: 'cap.bin', data } }, { contentLength });
        expect(res.status, res.text).toBe(201);
        expect(res.json).toMatchObject({ sizeBytes: CAP, sha256: sha(data) });
      });

      it(`answers 413 for cap + 1 bytes ${how}, aborts the S3 upload and discards the row`, async () => {
        const processRef = `cap-over-${contentLength}`;
        const res = await api.upload(t.as('writer'), { fields: formFields(processRef), file: { filename: 'over.bin', data: patterned(CAP + 1) } }, { contentLength });
        expectProblem(res, 413, 'document-too-large');
        await expectNothingStored(processRef);
        const rows = await ctx.db.sql`select status from documents where tenant_id = ${t.id} and process_ref = ${processRef}`;
        expect(rows.map((r) => r.status)).toEqual(['DELETED']);
      });
    }

    it('refuses at once (413, no row authorized) when Content-Length alone is far above the cap', async () => {
      const processRef = 'cap-declared';
      const res = await api.send('/api/documents', {
        method: 'POST',
        headers: {
          'X-User-Id': 'writer',
          'X-Tenant-Id': t.id,
          'Content-Type': 'multipart/form-data; boundary=x',
          'Content-Length': String(CAP * 4),
        },
        body: 'x'.repeat(10),
      });
      expectProblem(res, 413, 'document-too-large');
      const rows = await ctx.db.sql`select id from documents where tenant_id = ${t.id} and process_ref = ${processRef}`;
      expect(rows).toHaveLength(0);
    });
  });

  describe('the guard runs before any byte is stored', () => {
    const denied: Array<[string, string, Record<string, string>, number, string]> = [
      ['a read grant', 'reader', {}, 403, 'capability-write-required'],
      ['no grant', 'nobody', {}, 403, 'capability-not-granted'],
      ['a grant on another capability only (SIGNATURES upload by formsOnly)', 'formsOnly', { capability: 'SIGNATURES', kind: 'SIGNATURE_ATTACHMENT' }, 403, 'capability-not-granted'],
      ['a SIGNATURES document for a processRef with no started process (no FORMS carve-out)', 'writer', { capability: 'SIGNATURES', kind: 'SIGNATURE_ATTACHMENT' }, 403, 'document-context-required'],
      ['an EMAIL document for a processRef with no started process', 'writer', { capability: 'EMAIL', kind: 'GENERIC' }, 403, 'document-context-required'],
    ];
    for (const [why, user, extra, status, code] of denied) {
      it(`refuses ${why}: ${status} ${code}, nothing stored, no row`, async () => {
        const processRef = uniqueId('guard');
        const res = await api.upload(t.as(user), { fields: formFields(processRef, extra), file: { filename: 'g.pdf', data: patterned(5000) } });
        expectProblem(res, status, code);
        await expectNothingStored(processRef);
        expect(await ctx.db.sql`select id from documents where process_ref = ${processRef}`).toHaveLength(0);
      });
    }

    it('refuses a capability the tenant is not subscribed to: 422 capability-not-subscribed', async () => {
      const { seedTenant } = await import('../../support/fixtures');
      const other = await seedTenant(ctx, { members: ['writer'], subscribe: ['FORMS'], grants: [{ user: 'writer', code: 'FORMS', level: 'read-write' }] });
      const res = await api.upload(other.as('writer'), { fields: formFields('x', { capability: 'EMAIL', kind: 'GENERIC' }), file: { filename: 'g.pdf', data: Buffer.from('x') } });
      expectProblem(res, 422, 'capability-not-subscribed');
    });

    it('refuses a caller who is not a member of the tenant (layer 1): 403 not-a-member', async () => {
      const res = await api.upload({ user: 'stranger', tenant: t.id }, { fields: formFields('x'), file: { filename: 'g.pdf', data: Buffer.from('x') } });
      expectProblem(res, 403, 'not-a-member');
    });

    it('lets SIGNATURES and EMAIL upload once the process has started (process-started records the context)', async () => {
      const processRef = uniqueId('case-started');
      const started = await api.post('/api/documents/process-started', t.as('writer'), { processRef, processInstanceId: 'run-1' });
      expect(started.status, started.text).toBe(200);
      for (const [capability, kind] of [['SIGNATURES', 'SIGNATURE_ATTACHMENT'], ['EMAIL', 'GENERIC']]) {
        const res = await api.upload(t.as('writer'), { fields: formFields(processRef, { capability: capability!, kind: kind! }), file: { filename: 's.png', data: Buffer.from('png') } });
        expect(res.status, res.text).toBe(201);
        expect(res.json).toMatchObject({ capability, processInstanceId: 'run-1' });
      }
    });

    it('accepts a FORMS attachment for a processRef no process has started yet (the FORMS carve-out)', async () => {
      const res = await api.upload(t.as('formsOnly'), { fields: formFields(uniqueId('fresh')), file: { filename: 'f.txt', data: Buffer.from('f') } });
      expect(res.status, res.text).toBe(201);
      expect(res.json.processInstanceId).toBeNull();
    });
  });

  describe('malformed uploads', () => {
    it('415 multipart-required for a non-multipart body', async () => {
      const res = await api.post('/api/documents', t.as('writer'), { file: 'x' });
      expectProblem(res, 415, 'multipart-required');
    });

    it('400 file-part-missing when there is no file part', async () => {
      expectProblem(await api.upload(t.as('writer'), { fields: formFields('m-1') }), 400, 'file-part-missing');
    });

    it('400 validation-failed when a required field is missing (before the file)', async () => {
      const res = await api.upload(t.as('writer'), { fields: { processRef: 'm-2', kind: 'FORM_ATTACHMENT' }, file: { filename: 'a.txt', data: Buffer.from('a') } });
      expectProblem(res, 400, 'validation-failed');
    });

    it('400 field-after-file when metadata follows the file; the stored bytes are discarded', async () => {
      const res = await api.upload(t.as('writer'), { fields: formFields('m-3'), file: { filename: 'a.txt', data: Buffer.from('a') }, trailingFields: { note: 'late' } });
      expectProblem(res, 400, 'field-after-file');
      await expectNothingStored('m-3');
    });

    it('400 kind-capability-mismatch for a signature attachment filed under FORMS', async () => {
      const res = await api.upload(t.as('writer'), { fields: formFields('m-4', { kind: 'SIGNATURE_ATTACHMENT' }), file: { filename: 'a.txt', data: Buffer.from('a') } });
      expectProblem(res, 400, 'kind-capability-mismatch');
    });

    it('400 file-part-name when the file part is not named "file"', async () => {
      const res = await api.upload(t.as('writer'), { fields: formFields('m-5'), file: { name: 'upload', filename: 'a.txt', data: Buffer.from('a') } });
      expectProblem(res, 400, 'file-part-name');
    });

    it('stores a part Content-Type it will not echo (over-long subtype) as application/octet-stream', async () => {
      const res = await api.upload(t.as('writer'), { fields: formFields('m-6'), file: { filename: 'a.txt', data: Buffer.from('a'), contentType: `application/${'x'.repeat(200)}` } });
      expect(res.status, res.text).toBe(201);
      expect(res.json.contentType).toBe('application/octet-stream');
    });
  });

  it('takes one file and up to ten fields; an eleventh field is 400 too-many-parts and nothing is kept', async () => {
    const extra = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`note${i}`, 'x']));
    const ten = { ...formFields('case-ten', { taskId: 't', ownerEntityId: 'o' }), ...extra(5) };
    expect(Object.keys(ten)).toHaveLength(10);
    const ok = await api.upload(t.as('writer'), { fields: ten, file: { filename: 'a.txt', data: Buffer.from('a') } });
    expect(ok.status, ok.text).toBe(201);
    const eleven = { ...formFields('case-eleven', { taskId: 't', ownerEntityId: 'o' }), ...extra(6) };
    expectProblem(await api.upload(t.as('writer'), { fields: eleven, file: { filename: 'a.txt', data: Buffer.from('a') } }), 400, 'too-many-parts');
    await expectNothingStored('case-eleven');
  });

  it('storage-key leak check: no response of this file carried a storage key', async () => {
    await rec.expectNoStorageKeys(ctx);
  });
});
