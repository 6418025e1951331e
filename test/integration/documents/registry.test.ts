// The registry (core) routes under /api/internal/documents: the internal key, every route,
// sealed storage keys, and tenant isolation (404) on every route of both tiers.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStorageTicket } from '../../../api/documents/storage-ticket';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { docApi, documentRow, formFields, ResponseRecorder, seedDocTenant, testS3Client } from '../../support/documents';
import { expectProblem } from '../../support/fixtures';

const s3 = testS3Client();
const authorizeBody = (processRef: string, extra: Record<string, unknown> = {}) => ({
  processRef,
  kind: 'FORM_ATTACHMENT',
  capability: 'FORMS',
  filename: 'Form Scan.pdf',
  contentType: 'application/pdf',
  ...extra,
});
const finalizeBody = (version: number, extra: Record<string, unknown> = {}) => ({
  version,
  sizeBytes: 3,
  sha256: 'b'.repeat(64),
  storageVersionId: 'v-test',
  scan: 'SKIPPED',
  retention: { mode: 'GOVERNANCE', retainUntil: new Date(Date.now() + 86_400_000).toISOString() },
  ...extra,
});

describe('document registry (internal routes)', () => {
  const ctx = useTestApp({ 'docstore.max-bytes': 64 * 1024, deps: { s3 } });
  const rec = new ResponseRecorder();
  const api = docApi(() => ctx.app, rec, INTERNAL_KEY);
  let t: Awaited<ReturnType<typeof seedDocTenant>>;
  let u: Awaited<ReturnType<typeof seedDocTenant>>;

  beforeAll(async () => {
    t = await seedDocTenant(ctx);
    u = await seedDocTenant(ctx);
  });

  describe('X-Internal-Key', () => {
    it('401 internal-key-invalid without the header, before the body is even validated', async () => {
      expectProblem(await api.internal('POST', '/authorize', t.as('writer'), { nonsense: true }, { 'X-Internal-Key': '' }), 401, 'internal-key-invalid');
    });

    it('401 internal-key-invalid with a wrong key (also one that shares a prefix)', async () => {
      for (const key of ['wrong', INTERNAL_KEY.slice(0, -1), `${INTERNAL_KEY}x`]) {
        expectProblem(await api.internal('GET', `/${randomUUID()}`, t.as('writer'), undefined, { 'X-Internal-Key': key }), 401, 'internal-key-invalid');
      }
    });

    it('needs X-Tenant-Id and X-User-Id as well (400 missing-header)', async () => {
      expectProblem(await api.internal('GET', `/${randomUUID()}`, { user: 'writer' }), 400, 'missing-header');
      expectProblem(await api.internal('GET', `/${randomUUID()}`, null, undefined, { 'X-Tenant-Id': t.id }), 400, 'missing-header');
    });

    it('is not accepted on the proxy routes in place of identity headers', async () => {
      expectProblem(await api.get(`/api/documents/${randomUUID()}`, null, { 'X-Internal-Key': INTERNAL_KEY, 'X-Tenant-Id': t.id }), 400, 'missing-header');
    });
  });

  describe('a blank internal.key rejects everything (fail-closed)', () => {
    const blank = useTestApp({ 'internal.key': '', deps: { s3 } });
    const blankApi = docApi(() => blank.app, rec, '');

    it('403 internal-api-disabled with no key, and with any key', async () => {
      for (const key of ['', 'anything', INTERNAL_KEY]) {
        expectProblem(await blankApi.internal('GET', `/${randomUUID()}`, { user: 'writer', tenant: 'x' }, undefined, { 'X-Internal-Key': key }), 403, 'internal-api-disabled');
      }
    });
  });

  describe('routes', () => {
    it('authorize creates a PENDING row and returns the storage key only sealed for the proxy', async () => {
      const res = await api.internal('POST', '/authorize', t.as('writer'), authorizeBody('case-r1', { taskId: 'task-9' }));
      expect(res.status, res.text).toBe(201);
      expect(res.json).toMatchObject({ version: 1, retention: { mode: 'GOVERNANCE', days: 365 } });
      expect(res.json.document).toMatchObject({ id: res.json.docId, status: 'PENDING', scanStatus: 'NOT_SCANNED', sizeBytes: null, sha256: null, taskId: 'task-9' });
      expect(res.json.storageKey).toBeUndefined();
      const row = await documentRow(ctx, res.json.docId);
      expect(row!.storageKey).toBe(`case-r1/${res.json.docId}-form-scan.pdf`);
      expect(openStorageTicket(INTERNAL_KEY, t.id, res.json.docId, res.json.storageTicket)).toBe(row!.storageKey);
      // A ticket opens only for its own tenant and document.
      expect(() => openStorageTicket(INTERNAL_KEY, u.id, res.json.docId, res.json.storageTicket)).toThrow();
      expect(() => openStorageTicket(INTERNAL_KEY, t.id, randomUUID(), res.json.storageTicket)).toThrow();
    });

    it('finalize records size and SHA-256 and makes the document READY with its retention', async () => {
      const a = (await api.internal('POST', '/authorize', t.as('writer'), authorizeBody('case-r2'))).json;
      const fin = await api.internal('POST', `/${a.docId}/finalize`, t.as('writer'), finalizeBody(a.version));
      expect(fin.status, fin.text).toBe(200);
      expect(fin.json).toMatchObject({ status: 'READY', sizeBytes: 3, sha256: 'b'.repeat(64), version: 2, retentionMode: 'GOVERNANCE' });
      expect((await documentRow(ctx, a.docId))!.storageVersionId).toBe('v-test');
      expectProblem(await api.internal('POST', `/${a.docId}/finalize`, t.as('writer'), finalizeBody(2)), 409, 'document-not-pending');
    });

    it('finalize refuses a READY document of a retained capability without its retention (400 retention-required)', async () => {
      const a = (await api.internal('POST', '/authorize', t.as('writer'), authorizeBody('case-r3'))).json;
      expectProblem(await api.internal('POST', `/${a.docId}/finalize`, t.as('writer'), finalizeBody(a.version, { retention: null })), 400, 'retention-required');
      const wrongMode = finalizeBody(a.version, { retention: { mode: 'COMPLIANCE', retainUntil: new Date().toISOString() } });
      expectProblem(await api.internal('POST', `/${a.docId}/finalize`, t.as('writer'), wrongMode), 400, 'retention-required');
    });

    it('resolve gives the sealed key and version id of a READY document; GET gives its metadata', async () => {
      const a = (await api.internal('POST', '/authorize', t.as('writer'), authorizeBody('case-r4'))).json;
      expectProblem(await api.internal('POST', `/${a.docId}/resolve`, t.as('reader')), 409, 'document-not-ready');
      await api.internal('POST', `/${a.docId}/finalize`, t.as('writer'), finalizeBody(a.version));
      const r = await api.internal('POST', `/${a.docId}/resolve`, t.as('reader'));
      expect(r.status, r.text).toBe(200);
      expect(r.json).toMatchObject({ storageVersionId: 'v-test', document: { id: a.docId, status: 'READY' } });
      expect(openStorageTicket(INTERNAL_KEY, t.id, a.docId, r.json.storageTicket)).toBe((await documentRow(ctx, a.docId))!.storageKey);
      const g = await api.internal('GET', `/${a.docId}`, t.as('reader'));
      expect(g.json).toMatchObject({ id: a.docId, status: 'READY' });
      expectProblem(await api.internal('GET', `/${a.docId}`, t.as('nobody')), 403, 'capability-not-granted');
    });

    it('DELETE soft-deletes and signals hard delete only for a never-retained document', async () => {
      const pending = (await api.internal('POST', '/authorize', t.as('writer'), authorizeBody('case-r5'))).json;
      const d1 = await api.internal('DELETE', `/${pending.docId}`, t.as('writer'));
      expect(d1.status, d1.text).toBe(200);
      expect(d1.json).toMatchObject({ hardDelete: true, storageVersionId: null, document: { status: 'DELETED' } });
      expect(d1.json.document.deletedAt).toEqual(expect.any(String));
      const ready = (await api.internal('POST', '/authorize', t.as('writer'), authorizeBody('case-r5'))).json;
      await api.internal('POST', `/${ready.docId}/finalize`, t.as('writer'), finalizeBody(ready.version));
      const d2 = await api.internal('DELETE', `/${ready.docId}`, t.as('writer'), undefined, { 'If-Match': '"2"' });
      expect(d2.json).toMatchObject({ hardDelete: false, storageVersionId: 'v-test' });
      expectProblem(await api.internal('DELETE', `/${ready.docId}`, t.as('writer')), 409, 'document-already-deleted');
      expectProblem(await api.internal('DELETE', `/${pending.docId}`, t.as('reader')), 403, 'capability-write-required');
    });

    it('re-authorize (docId + version) refreshes a PENDING document; a stale version is 409', async () => {
      const a = (await api.internal('POST', '/authorize', t.as('writer'), authorizeBody('case-r6'))).json;
      const again = await api.internal('POST', '/authorize', t.as('writer'), authorizeBody('case-r6', { docId: a.docId, version: 1, filename: 'Retry.pdf' }));
      expect(again.status, again.text).toBe(201);
      expect(again.json).toMatchObject({ docId: a.docId, version: 2, document: { filename: 'Retry.pdf' } });
      expect((await documentRow(ctx, a.docId))!.storageKey).toBe(`case-r6/${a.docId}-retry.pdf`);
      expectProblem(await api.internal('POST', '/authorize', t.as('writer'), authorizeBody('case-r6', { docId: a.docId, version: 1 })), 409, 'version-conflict');
      expectProblem(await api.internal('POST', '/authorize', t.as('writer'), authorizeBody('case-r6', { docId: a.docId })), 400, 'version-required');
      expectProblem(
        await api.internal('POST', '/authorize', t.as('writer'), authorizeBody('case-other', { docId: a.docId, version: 2 })),
        409,
        'document-context-changed',
      );
    });
  });

  describe("another tenant's document is a 404 on every route of both tiers", () => {
    let docId: string;
    const as = () => u.as('writer');

    beforeAll(async () => {
      const up = await api.upload(t.as('writer'), { fields: formFields('case-iso', { taskId: 'task-iso', ownerEntityId: 'owner-iso' }), file: { filename: 'iso.txt', data: Buffer.from('iso') } });
      expect(up.status, up.text).toBe(201);
      docId = up.json.id;
    });

    const routes: Array<[string, () => ReturnType<typeof api.get>]> = [
      ['proxy GET /api/documents/{id}', () => api.get(`/api/documents/${docId}`, as())],
      ['proxy GET /api/documents/{id}/content', () => api.get(`/api/documents/${docId}/content`, as())],
      ['proxy DELETE /api/documents/{id}', () => api.del(`/api/documents/${docId}`, as())],
      ['registry POST /authorize (re-authorize)', () => api.internal('POST', '/authorize', as(), authorizeBody('case-iso', { docId, version: 2 }))],
      ['registry POST /{id}/finalize', () => api.internal('POST', `/${docId}/finalize`, as(), finalizeBody(2))],
      ['registry POST /{id}/resolve', () => api.internal('POST', `/${docId}/resolve`, as())],
      ['registry GET /{id}', () => api.internal('GET', `/${docId}`, as())],
      ['registry DELETE /{id}', () => api.internal('DELETE', `/${docId}`, as())],
    ];
    for (const [name, call] of routes) {
      it(name, async () => {
        expectProblem(await call(), 404, 'document-not-found');
      });
    }

    it('lists nothing of the other tenant (proxy and registry, every selector)', async () => {
      for (const q of ['processRef=case-iso', 'taskId=task-iso', 'capability=FORMS&ownerEntityId=owner-iso']) {
        expect((await api.get(`/api/documents?${q}`, as())).json).toEqual({ items: [], nextCursor: null });
        expect((await api.internal('GET', `?${q}`, as())).json).toEqual({ items: [], nextCursor: null });
      }
    });

    it('process-started in one tenant never backfills the other tenant’s rows', async () => {
      const res = await api.post('/api/documents/process-started', as(), { processRef: 'case-iso', processInstanceId: 'run-other' });
      expect(res.json).toMatchObject({ updated: 0 });
      expect((await documentRow(ctx, docId))!.processInstanceId).toBeNull();
    });

    it('the document is untouched and still READY for its own tenant', async () => {
      expect((await api.get(`/api/documents/${docId}`, t.as('writer'))).json).toMatchObject({ status: 'READY', version: 2 });
    });
  });

  it('storage-key leak check: no response of this file carried a storage key', async () => {
    await rec.expectNoStorageKeys(ctx);
  });
});
