// Every path-traversal attempt in processRef or filename is refused with 400 before anything is
// authorized or stored, through the proxy (multipart) and the registry (JSON) alike.
import { beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { docApi, formFields, ResponseRecorder, s3State, seedDocTenant, testS3Client } from '../../support/documents';
import { expectProblem } from '../../support/fixtures';

const s3 = testS3Client();

const PROCESS_REFS: Array<[string, string]> = [
  ['parent segment', '..'],
  ['current segment', '.'],
  ['parent then name', '../x'],
  ['inner parent', 'a/../b'],
  ['slash', 'a/b'],
  ['absolute path', '/abs'],
  ['backslash', 'a\\b'],
  ['UNC prefix', '\\\\server'],
  ['encoded dots', '%2e%2e'],
  ['upper-case encoded dots', '%2E%2E'],
  ['encoded single dot', '%2e'],
  ['dots and encoded slash', '..%2f'],
  ['encoded leading slash', '%2fetc'],
  ['encoded slash', 'a%2fb'],
  ['encoded backslash', 'a%5cb'],
  ['double-encoded ../', '%252e%252e%252f'],
  ['triple-encoded dots', '%25252e%25252e'],
  ['overlong UTF-8 dots', '%c0%ae%c0%ae'],
  ['IIS %u dots', '%u002e%u002e'],
  ['NUL', 'x\u0000y'],
  ['encoded NUL', '%00'],
  ['line feed', 'x\ny'],
  ['carriage return', 'x\ry'],
  ['tab', 'x\ty'],
  ['encoded line feed', 'a%0ab'],
  ['DEL', 'x\u007f'],
  ['bidi override', 'a\u202eb'],
  ['fullwidth solidus', 'a\uff0fb'],
  ['two-dot leader', '\u2025'],
];

const FILENAMES: Array<[string, string]> = [
  ['parent path', '../evil.pdf'],
  ['windows parent path', '..\\evil.pdf'],
  ['absolute path', '/etc/passwd'],
  ['drive path', 'C:\\Windows\\evil.dll'],
  ['directory', 'a/b.pdf'],
  ['parent segment', '..'],
  ['current segment', '.'],
  ['encoded ../', '%2e%2e%2fevil.pdf'],
  ['dots and encoded slash', '..%2fevil.pdf'],
  ['dots and encoded backslash', '..%5cevil.pdf'],
  ['double-encoded ../', '%252e%252e%252fevil.pdf'],
  ['overlong UTF-8 ../', '%c0%ae%c0%ae%c0%afevil'],
  ['NUL', 'evil\u0000.pdf'],
  ['encoded NUL', 'evil%00.pdf'],
  ['line feed', 'line\nbreak.pdf'],
  ['bidi override', 'invoice\u202efdp.exe'],
  ['fullwidth dots and solidus', '\uff0e\uff0e\uff0fevil'],
];

/** JSON bodies meet the shared input vocabulary first: a NUL is refused at the edge, for every route alike. */
const jsonCode = (value: string) => (value.includes('\u0000') ? 'validation-failed' : 'invalid-document-input');

describe('path traversal in processRef and filename is refused with 400', () => {
  const ctx = useTestApp({ 'docstore.max-bytes': 64 * 1024, deps: { s3 } });
  const rec = new ResponseRecorder();
  const api = docApi(() => ctx.app, rec, INTERNAL_KEY);
  let t: Awaited<ReturnType<typeof seedDocTenant>>;

  beforeAll(async () => {
    t = await seedDocTenant(ctx);
  });

  describe('processRef, upload through the proxy', () => {
    for (const [why, processRef] of PROCESS_REFS) {
      it(`refuses ${why} (${JSON.stringify(processRef)})`, async () => {
        const res = await api.upload(t.as('writer'), { fields: formFields(processRef), file: { filename: 'ok.pdf', data: Buffer.from('bytes') } });
        expectProblem(res, 400, jsonCode(processRef));
        if (!processRef.includes('\u0000')) expect(res.json.field).toBe('processRef');
      });
    }
  });

  describe('processRef, registry authorize and process-started', () => {
    for (const [why, processRef] of PROCESS_REFS) {
      it(`refuses ${why} (${JSON.stringify(processRef)})`, async () => {
        const body = { processRef, kind: 'FORM_ATTACHMENT', capability: 'FORMS', filename: 'ok.pdf', contentType: 'application/pdf' };
        expectProblem(await api.internal('POST', '/authorize', t.as('writer'), body), 400, jsonCode(processRef));
        const started = await api.post('/api/documents/process-started', t.as('writer'), { processRef, processInstanceId: 'run-1' });
        expectProblem(started, 400, jsonCode(processRef));
      });
    }
  });

  describe('filename, upload through the proxy (filename* carries the exact bytes)', () => {
    for (const [why, filename] of FILENAMES) {
      it(`refuses ${why} (${JSON.stringify(filename)})`, async () => {
        const res = await api.upload(t.as('writer'), {
          fields: formFields('case-ok'),
          file: { filename, rawDisposition: `filename*=UTF-8''${encodeURIComponent(filename)}`, data: Buffer.from('bytes') },
        });
        expectProblem(res, 400, 'invalid-document-input');
        expect(res.json.field).toBe('filename');
      });
    }

    it('refuses a plain filename="../../evil.pdf" (the multipart parser keeps the path for the validator)', async () => {
      const res = await api.upload(t.as('writer'), { fields: formFields('case-ok'), file: { filename: '../../evil.pdf', data: Buffer.from('x') } });
      expectProblem(res, 400, 'invalid-document-input');
    });
  });

  describe('filename, registry authorize', () => {
    for (const [why, filename] of FILENAMES) {
      it(`refuses ${why} (${JSON.stringify(filename)})`, async () => {
        const body = { processRef: 'case-ok', kind: 'FORM_ATTACHMENT', capability: 'FORMS', filename, contentType: 'application/pdf' };
        expectProblem(await api.internal('POST', '/authorize', t.as('writer'), body), 400, jsonCode(filename));
      });
    }
  });

  it('authorized nothing and stored nothing for any attempt', async () => {
    expect(await ctx.db.sql`select id from documents where tenant_id = ${t.id}`).toHaveLength(0);
    expect(await ctx.db.sql`select tenant_id from document_processes where tenant_id = ${t.id}`).toHaveLength(0);
    expect(await s3State(s3, ctx.settings['s3.bucket'], `${t.id}/`)).toEqual({ versions: [], deleteMarkers: [], uploads: [] });
  });

  it('still accepts look-alikes that are not traversal (an ellipsis, dots inside a name, a percent sign)', async () => {
    for (const filename of ['Draft… v2.pdf', 'report.v1.2.pdf', '100% done.txt']) {
      const res = await api.upload(t.as('writer'), { fields: formFields('case.2024.01'), file: { filename, data: Buffer.from('x') } });
      expect(res.status, `${filename}: ${res.text}`).toBe(201);
      expect(res.json.filename).toBe(filename);
    }
  });

  it('storage-key leak check: no response of this file carried a storage key', async () => {
    await rec.expectNoStorageKeys(ctx);
  });
});
