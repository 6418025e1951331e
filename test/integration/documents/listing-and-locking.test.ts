// Listings (by processRef, taskId, capability + ownerEntityId; read-filtered; paged), the
// process-started backfill, and the optimistic lock under parallel requests.
import { beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { docApi, documentRow, formFields, ResponseRecorder, seedDocTenant, testS3Client } from '../../support/documents';
import { expectProblem, uniqueId } from '../../support/fixtures';

const s3 = testS3Client();
const PARALLEL = 8;

describe('document listings, process-started and optimistic locking', () => {
  const ctx = useTestApp({ 'docstore.max-bytes': 64 * 1024, deps: { s3 } });
  const rec = new ResponseRecorder();
  const api = docApi(() => ctx.app, rec, INTERNAL_KEY);
  let t: Awaited<ReturnType<typeof seedDocTenant>>;
  const P = 'case-list';
  const ids: Record<string, string> = {};

  const upload = async (name: string, fields: Record<string, string>) => {
    const res = await api.upload(t.as('writer'), { fields, file: { filename: `${name}.txt`, data: Buffer.from(name) } });
    expect(res.status, res.text).toBe(201);
    ids[name] = res.json.id;
    return res.json;
  };

  beforeAll(async () => {
    t = await seedDocTenant(ctx);
    await upload('f1', formFields(P, { taskId: 'T1', ownerEntityId: 'O1' }));
    await upload('f2', formFields(P, { taskId: 'T1' }));
    await upload('f3', formFields(P, { taskId: 'T2', ownerEntityId: 'O1' }));
    const started = await api.post('/api/documents/process-started', t.as('writer'), { processRef: P, processInstanceId: 'run-list' });
    expect(started.json).toEqual({ processRef: P, processInstanceId: 'run-list', updated: 3 });
    await upload('s1', formFields(P, { capability: 'SIGNATURES', kind: 'SIGNATURE_ATTACHMENT', taskId: 'T1' }));
    await upload('e1', formFields(P, { capability: 'EMAIL', kind: 'GENERIC', ownerEntityId: 'O1' }));
    await upload('gone', formFields(P));
    expect((await api.del(`/api/documents/${ids['gone']}`, t.as('writer'))).status).toBe(200);
  });

  const names = (items: Array<{ id: string }>) => items.map((i) => Object.keys(ids).find((k) => ids[k] === i.id));

  describe('listing', () => {
    it('by processRef: the case file in upload order, without DELETED documents', async () => {
      const res = await api.get(`/api/documents?processRef=${P}`, t.as('writer'));
      expect(res.status, res.text).toBe(200);
      expect(names(res.json.items)).toEqual(['f1', 'f2', 'f3', 's1', 'e1']);
      expect(res.json.nextCursor).toBeNull();
    });

    it('by taskId: the task’s attachments', async () => {
      expect(names((await api.get('/api/documents?taskId=T1', t.as('writer'))).json.items)).toEqual(['f1', 'f2', 's1']);
    });

    it('by capability with ownerEntityId: an owner’s documents of that capability', async () => {
      expect(names((await api.get('/api/documents?capability=FORMS&ownerEntityId=O1', t.as('writer'))).json.items)).toEqual(['f1', 'f3']);
      expect(names((await api.get('/api/documents?capability=EMAIL&ownerEntityId=O1', t.as('writer'))).json.items)).toEqual(['e1']);
    });

    it('is filtered by read permission: a FORMS-only user sees FORMS documents, a member without grants none', async () => {
      expect(names((await api.get(`/api/documents?processRef=${P}`, t.as('formsOnly'))).json.items)).toEqual(['f1', 'f2', 'f3']);
      expect(names((await api.get(`/api/documents?processRef=${P}`, t.as('reader'))).json.items)).toEqual(['f1', 'f2', 'f3', 's1', 'e1']);
      expect((await api.get(`/api/documents?processRef=${P}`, t.as('nobody'))).json).toEqual({ items: [], nextCursor: null });
      expect((await api.get('/api/documents?capability=EMAIL&ownerEntityId=O1', t.as('formsOnly'))).json.items).toEqual([]);
    });

    it('pages with limit and an opaque cursor, without gaps or repeats', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const q: string = `processRef=${P}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await api.get(`/api/documents?${q}`, t.as('writer'));
        expect(res.json.items.length).toBeLessThanOrEqual(2);
        seen.push(...(names(res.json.items) as string[]));
        cursor = res.json.nextCursor;
        pages++;
      } while (cursor);
      expect(seen).toEqual(['f1', 'f2', 'f3', 's1', 'e1']);
      expect(pages).toBe(3);
    });

    it('the registry lists the same way', async () => {
      expect(names((await api.internal('GET', '?taskId=T1', t.as('formsOnly'))).json.items)).toEqual(['f1', 'f2']);
    });

    it('400 list-selector-required without exactly one selector; 400 invalid-cursor for a forged cursor', async () => {
      for (const q of ['', 'processRef=a&taskId=b', 'capability=FORMS', 'ownerEntityId=O1', 'processRef=a&capability=FORMS&ownerEntityId=O1']) {
        expectProblem(await api.get(`/api/documents?${q}`, t.as('writer')), 400, 'list-selector-required');
      }
      expectProblem(await api.get(`/api/documents?processRef=${P}&cursor=bm9wZQ`, t.as('writer')), 400, 'invalid-cursor');
      expectProblem(await api.get(`/api/documents?processRef=${P}&limit=201`, t.as('writer')), 400, 'validation-failed');
    });
  });

  describe('process-started', () => {
    it('backfilled the rows uploaded before it (their version unchanged) and later uploads inherit the instance', async () => {
      const f1 = await documentRow(ctx, ids['f1']!);
      expect(f1).toMatchObject({ processInstanceId: 'run-list', version: 2 });
      expect((await documentRow(ctx, ids['s1']!))!.processInstanceId).toBe('run-list');
    });

    it('an upload authorized before the process started finalizes with its version after the backfill', async () => {
      const ref = uniqueId('case-inflight');
      const authorized = await api.internal('POST', '/authorize', t.as('writer'), {
        processRef: ref,
        kind: 'FORM_ATTACHMENT',
        capability: 'FORMS',
        filename: 'in-flight.pdf',
        contentType: 'application/pdf',
      });
      const { docId, version } = authorized.json as { docId: string; version: number };
      const started = await api.post('/api/documents/process-started', t.as('writer'), { processRef: ref, processInstanceId: 'run-inflight' });
      expect(started.json).toMatchObject({ updated: 1 });
      const finalized = await api.internal('POST', `/${docId}/finalize`, t.as('writer'), {
        version,
        sizeBytes: 4,
        sha256: 'a'.repeat(64),
        storageVersionId: 'v-inflight',
        scan: 'ERROR',
      });
      expect(finalized.status).toBe(200);
      expect(await documentRow(ctx, docId)).toMatchObject({ processInstanceId: 'run-inflight', version: version + 1 });
    });

    it('is idempotent for the same instance and 409 process-already-started for another', async () => {
      const same = await api.post('/api/documents/process-started', t.as('writer'), { processRef: P, processInstanceId: 'run-list' });
      expect(same.json).toMatchObject({ updated: 0 });
      expectProblem(await api.post('/api/documents/process-started', t.as('writer'), { processRef: P, processInstanceId: 'run-2' }), 409, 'process-already-started');
    });

    it('backfills only the capabilities the caller may write; no write grant at all is 403', async () => {
      const ref = uniqueId('case-bf');
      await upload('bfForm', formFields(ref));
      const res = await api.post('/api/documents/process-started', t.as('formsOnly'), { processRef: ref, processInstanceId: 'run-bf' });
      expect(res.json).toMatchObject({ updated: 1 });
      expectProblem(await api.post('/api/documents/process-started', t.as('reader'), { processRef: ref, processInstanceId: 'x' }), 403, 'capability-not-granted');
      expectProblem(await api.internal('POST', '/process-started', t.as('nobody'), { processRef: ref, processInstanceId: 'x' }), 403, 'capability-not-granted');
    });
  });

  describe('optimistic lock: parallel writes to one row give exactly one success and 409 for the others', () => {
    const authorize = async () => {
      const res = await api.internal('POST', '/authorize', t.as('writer'), {
        processRef: 'case-lock',
        kind: 'FORM_ATTACHMENT',
        capability: 'FORMS',
        filename: 'l.pdf',
        contentType: 'application/pdf',
      });
      return res.json as { docId: string; version: number };
    };
    const outcome = (statuses: number[]) => ({ ok: statuses.filter((s) => s < 300).length, conflicts: statuses.filter((s) => s === 409).length });

    it(`${PARALLEL} concurrent re-authorizations`, async () => {
      const a = await authorize();
      const results = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          api.internal('POST', '/authorize', t.as('writer'), {
            processRef: 'case-lock',
            kind: 'FORM_ATTACHMENT',
            capability: 'FORMS',
            filename: `retry-${i}.pdf`,
            contentType: 'application/pdf',
            docId: a.docId,
            version: a.version,
          }),
        ),
      );
      expect(outcome(results.map((r) => r.status))).toEqual({ ok: 1, conflicts: PARALLEL - 1 });
      expect((await documentRow(ctx, a.docId))!.version).toBe(a.version + 1);
    });

    it(`${PARALLEL} concurrent finalizations`, async () => {
      const a = await authorize();
      const body = {
        version: a.version,
        sizeBytes: 1,
        sha256: 'c'.repeat(64),
        storageVersionId: 'v',
        scan: 'SKIPPED',
        retention: { mode: 'GOVERNANCE', retainUntil: new Date(Date.now() + 1e9).toISOString() },
      };
      const results = await Promise.all(Array.from({ length: PARALLEL }, () => api.internal('POST', `/${a.docId}/finalize`, t.as('writer'), body)));
      expect(outcome(results.map((r) => r.status))).toEqual({ ok: 1, conflicts: PARALLEL - 1 });
      for (const r of results.filter((x) => x.status === 409)) expect(['version-conflict', 'document-not-pending']).toContain(r.json.code);
    });

    it(`${PARALLEL} concurrent registry deletes with If-Match`, async () => {
      const a = await authorize();
      const results = await Promise.all(
        Array.from({ length: PARALLEL }, () => api.internal('DELETE', `/${a.docId}`, t.as('writer'), undefined, { 'If-Match': `"${a.version}"` })),
      );
      expect(outcome(results.map((r) => r.status))).toEqual({ ok: 1, conflicts: PARALLEL - 1 });
      for (const r of results.filter((x) => x.status === 409)) expect(r.json.code).toBe('version-conflict');
    });

    it(`${PARALLEL} concurrent proxy deletes without If-Match`, async () => {
      const up = await upload(uniqueId('lockdel'), formFields('case-lock'));
      const results = await Promise.all(Array.from({ length: PARALLEL }, () => api.del(`/api/documents/${up.id}`, t.as('writer'))));
      expect(outcome(results.map((r) => r.status))).toEqual({ ok: 1, conflicts: PARALLEL - 1 });
    });

    it('a stale If-Match on the proxy delete is 409 version-conflict; a malformed one 400', async () => {
      const up = await upload(uniqueId('stale'), formFields('case-lock'));
      expectProblem(await api.del(`/api/documents/${up.id}`, t.as('writer'), { 'If-Match': `"${up.version + 5}"` }), 409, 'version-conflict');
      expectProblem(await api.del(`/api/documents/${up.id}`, t.as('writer'), { 'If-Match': 'W/"abc"' }), 400, 'malformed-header');
      expect((await api.del(`/api/documents/${up.id}`, t.as('writer'), { 'If-Match': `"${up.version}"` })).status).toBe(200);
    });
  });

  it('storage-key leak check: no response of this file carried a storage key', async () => {
    await rec.expectNoStorageKeys(ctx);
  });
});
