// Both RegistryClient implementations behind a real listening proxy on 127.0.0.1: in-process,
// and HTTP to a separately listening registry (setting docstore.registry-url). The same
// contract runs against both; the HTTP registry's own responses are recorded for the leak check.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../../api/server';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { docApi, documentRow, formFields, patterned, ResponseRecorder, s3State, seedDocTenant, testS3Client } from '../../support/documents';
import { expectProblem, seedTenant } from '../../support/fixtures';
import type { Settings } from '../../../domain/settings';

const CAP = 64 * 1024;
const s3 = testS3Client();
const rec = new ResponseRecorder();
// Every fetch of this file (the tests' own and the HTTP registry client's) is recorded.
vi.stubGlobal('fetch', rec.wrapFetch(globalThis.fetch));

describe('RegistryClient modes behind a listening proxy', () => {
  const ctx = useTestApp({ 'docstore.max-bytes': CAP, deps: { s3 } });
  const servers: Record<string, RunningServer> = {};
  const started: RunningServer[] = [];
  let t: Awaited<ReturnType<typeof seedDocTenant>>;
  const serve = async (overrides: Partial<Settings>) => {
    const s = await startServer({ ...ctx.deps, settings: { ...ctx.settings, ...overrides } }, 0, '127.0.0.1');
    started.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await seedDocTenant(ctx);
    const registry = await serve({});
    servers['in-process'] = await serve({});
    servers['http'] = await serve({ 'docstore.registry-url': `http://127.0.0.1:${registry.port}` });
    servers['registry-down'] = await serve({ 'docstore.registry-url': 'http://127.0.0.1:9' });
    servers['wrong-key'] = await serve({ 'docstore.registry-url': `http://127.0.0.1:${registry.port}`, 'internal.key': 'not-the-key' });
  });
  afterAll(async () => {
    for (const s of started) await s.close();
  });

  describe.each(['in-process', 'http'])('%s registry', (mode) => {
    const api = docApi(() => `http://127.0.0.1:${servers[mode]!.port}`, rec, INTERNAL_KEY);
    const P = `case-${mode}`;
    const data = patterned(30_000, mode.length);
    let id: string;

    it('uploads over real HTTP: 201 with the view, bytes in S3', async () => {
      const res = await api.upload(t.as('writer'), { fields: formFields(P, { taskId: 'T' }), file: { filename: 'a.pdf', data, contentType: 'application/pdf' } });
      expect(res.status, res.text).toBe(201);
      expect(res.json).toMatchObject({ status: 'READY', sizeBytes: data.length, sha256: createHash('sha256').update(data).digest('hex') });
      id = res.json.id;
      const row = (await documentRow(ctx, id))!;
      expect((await s3State(s3, ctx.settings['s3.bucket'], `${t.id}/${row.storageKey}`)).versions).toHaveLength(1);
    });

    for (const contentLength of [true, false]) {
      it(`413 at cap + 1 ${contentLength ? 'with' : 'without'} Content-Length reaches the client over HTTP; the cap itself passes`, async () => {
        const over = await api.upload(t.as('writer'), { fields: formFields(`${P}-over`), file: { filename: 'o.bin', data: patterned(CAP + 1) } }, { contentLength });
        expectProblem(over, 413, 'document-too-large');
        const ok = await api.upload(t.as('writer'), { fields: formFields(`${P}-cap`), file: { filename: 'c.bin', data: patterned(CAP) } }, { contentLength });
        expect(ok.status, ok.text).toBe(201);
      });
    }

    it('metadata, listing and a byte-exact 206', async () => {
      expect((await api.get(`/api/documents/${id}`, t.as('reader'))).json).toMatchObject({ id, taskId: 'T' });
      expect((await api.get(`/api/documents?taskId=T`, t.as('reader'))).json.items.map((i: { id: string }) => i.id)).toContain(id);
      const part = await api.get(`/api/documents/${id}/content`, t.as('reader'), { Range: 'bytes=100-299' });
      expect(part.status).toBe(206);
      expect(part.body.equals(data.subarray(100, 300))).toBe(true);
      expectProblem(await api.get(`/api/documents/${id}/content`, t.as('reader'), { Range: 'bytes=999999-' }), 416, 'range-not-satisfiable');
    });

    it('registry refusals pass through with their status and code (400, 403, 404, 409)', async () => {
      const bad = await api.upload(t.as('writer'), { fields: formFields('..'), file: { filename: 'a.pdf', data: Buffer.from('a') } });
      expectProblem(bad, 400, 'invalid-document-input');
      expect(bad.json).toMatchObject({ field: 'processRef', reason: 'dot-segment' });
      expectProblem(await api.upload(t.as('reader'), { fields: formFields(P), file: { filename: 'a.pdf', data: Buffer.from('a') } }), 403, 'capability-write-required');
      const other = await seedTenant(ctx, { members: ['writer'], subscribe: ['FORMS'], grants: [{ user: 'writer', code: 'FORMS', level: 'read-write' }] });
      expectProblem(await api.get(`/api/documents/${id}`, other.as('writer')), 404, 'document-not-found');
      expectProblem(await api.get(`/api/documents/${id}/content`, other.as('writer')), 404, 'document-not-found');
      expectProblem(await api.del(`/api/documents/${id}`, other.as('writer')), 404, 'document-not-found');
      expectProblem(await api.del(`/api/documents/${id}`, t.as('writer'), { 'If-Match': '"99"' }), 409, 'version-conflict');
    });

    it('process-started backfills through the client', async () => {
      const res = await api.post('/api/documents/process-started', t.as('writer'), { processRef: P, processInstanceId: `run-${mode}` });
      expect(res.json).toEqual({ processRef: P, processInstanceId: `run-${mode}`, updated: 1 });
    });

    it('delete: soft delete in the registry, then the object is hidden (retained FORMS: delete marker)', async () => {
      const res = await api.del(`/api/documents/${id}`, t.as('writer'));
      expect(res.status, res.text).toBe(200);
      expect(res.json.status).toBe('DELETED');
      const row = (await documentRow(ctx, id))!;
      expect((await s3State(s3, ctx.settings['s3.bucket'], `${t.id}/${row.storageKey}`)).deleteMarkers).toHaveLength(1);
      expectProblem(await api.get(`/api/documents/${id}/content`, t.as('writer')), 409, 'document-not-ready');
    });
  });

  describe('HTTP registry failures', () => {
    it('a registry that does not answer: 503 registry-unavailable, and an upload stores nothing', async () => {
      const api = docApi(() => `http://127.0.0.1:${servers['registry-down']!.port}`, rec);
      expectProblem(await api.get(`/api/documents?processRef=x`, t.as('writer')), 503, 'registry-unavailable');
      expectProblem(await api.upload(t.as('writer'), { fields: formFields('case-down'), file: { filename: 'a.pdf', data: Buffer.from('a') } }), 503, 'registry-unavailable');
      expect(await s3State(s3, ctx.settings['s3.bucket'], `${t.id}/case-down/`)).toEqual({ versions: [], deleteMarkers: [], uploads: [] });
    });

    it('a proxy with the wrong internal key: 503 registry-unavailable, never the registry’s 401', async () => {
      const api = docApi(() => `http://127.0.0.1:${servers['wrong-key']!.port}`, rec);
      expectProblem(await api.get(`/api/documents?processRef=x`, t.as('writer')), 503, 'registry-unavailable');
    });
  });

  it('the HTTP tier really went over HTTP to the registry', () => {
    expect(rec.seen.some((r) => r.where.includes('/api/internal/documents/authorize') && r.status === 201)).toBe(true);
    expect(rec.seen.some((r) => r.where.includes('/api/internal/documents/') && r.where.includes('/resolve'))).toBe(true);
  });

  it('storage-key leak check: no response of either tier (proxy or registry) carried a storage key', async () => {
    await rec.expectNoStorageKeys(ctx);
  });
});
