// Service principals on the document registry (a workflow, an embed token holder, a signer),
// each under its own rule, through both RegistryClient modes: the in-process DocumentRegistry and
// HttpRegistryClient against a listening registry, which carries the principal in
// X-Document-Principal. Tenant isolation holds for every principal: another tenant's document is 404.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpRegistryClient } from '../../../api/documents/http-registry-client';
import { startServer, type RunningServer } from '../../../api/server';
import { DocumentRegistry } from '../../../services/documents/document-registry';
import type { EmbedCaller, SignerCaller, UserCaller, WorkflowCaller } from '../../../services/documents/registry-caller';
import type { AuthorizeInput, FinalizeInput, RegistryClient } from '../../../services/documents/registry-client';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { docApi, documentRow, ResponseRecorder, seedDocTenant, testS3Client } from '../../support/documents';
import { expectProblem, seedTenant } from '../../support/fixtures';

const s3 = testS3Client();

async function refusal(p: Promise<unknown>): Promise<{ status?: number; code?: string }> {
  try {
    await p;
  } catch (err) {
    return { status: (err as { status?: number }).status, code: (err as { code?: string }).code };
  }
  throw new Error('expected a refusal, the call succeeded');
}

const file = (over: Partial<AuthorizeInput> & Pick<AuthorizeInput, 'processRef' | 'kind' | 'capability'>): AuthorizeInput => ({
  filename: 'mark.png',
  contentType: 'image/png',
  ...over,
});

const finalizeOf = (version: number, mode: 'GOVERNANCE' | 'COMPLIANCE'): FinalizeInput => ({
  version,
  sizeBytes: 3,
  sha256: 'c'.repeat(64),
  storageVersionId: 'v-principal',
  scan: 'SKIPPED',
  retention: { mode, retainUntil: new Date(Date.now() + 86_400_000).toISOString() },
});

describe('service principals on the document registry', () => {
  const ctx = useTestApp({ deps: { s3 } });
  let server: RunningServer;
  let t: Awaited<ReturnType<typeof seedDocTenant>>;
  let foreign: Awaited<ReturnType<typeof seedDocTenant>>;
  let formsOnly: Awaited<ReturnType<typeof seedTenant>>;
  const registries: Record<string, RegistryClient> = {};

  beforeAll(async () => {
    t = await seedDocTenant(ctx);
    foreign = await seedDocTenant(ctx);
    formsOnly = await seedTenant(ctx, { subscribe: ['FORMS'] });
    server = await startServer(ctx.deps, 0, '127.0.0.1');
    registries['in-process'] = new DocumentRegistry(ctx.deps);
    registries['http'] = new HttpRegistryClient({ baseUrl: `http://127.0.0.1:${server.port}`, internalKey: INTERNAL_KEY });
  });
  afterAll(async () => {
    await server?.close();
  });

  describe.each(['in-process', 'http'])('%s registry', (mode) => {
    const reg = () => registries[mode]!;
    const SIG = `sig-req-${mode}`;
    const EMBED = `embed-${mode}-${randomUUID()}`;
    const workflow = (): WorkflowCaller => ({ kind: 'workflow', tenantId: t.id, capability: 'SIGNATURES', workflowId: `signatures:${t.id}:${SIG}` });
    const embed = (processRef = EMBED): EmbedCaller => ({ kind: 'embed', tenantId: t.id, capability: 'FORMS', processRef });
    const signer = (signerId: string): SignerCaller => ({ kind: 'signer', tenantId: t.id, capability: 'SIGNATURES', processRef: SIG, signerId });
    const writer = (): UserCaller => ({
      kind: 'user',
      tenantId: t.id,
      userId: 'writer',
      snapshot: { subscriptions: { FORMS: 'ACTIVE', SIGNATURES: 'ACTIVE', EMAIL: 'ACTIVE' }, grants: { FORMS: 'read-write', SIGNATURES: 'read-write', EMAIL: 'read-write' } },
    });
    let sealed: string;
    let formPdf: string;

    describe('workflow: documents of its own capability within its tenant', () => {
      it('records its process, then creates, finalizes and reads a SIGNATURES document; createdBy workflow:<id>', async () => {
        expect(await reg().processStarted(workflow(), { processRef: SIG, processInstanceId: `run-${mode}` })).toEqual({
          processRef: SIG,
          processInstanceId: `run-${mode}`,
          updated: 0,
        });
        const a = await reg().authorize(workflow(), file({ processRef: SIG, kind: 'GENERIC', capability: 'SIGNATURES', filename: 'sealed.pdf' }));
        expect(a.document).toMatchObject({ status: 'PENDING', createdBy: `workflow:signatures:${t.id}:${SIG}`, createdByName: null });
        const row = (await documentRow(ctx, a.docId))!;
        expect(a.storageKey).toBe(row.storageKey);
        const view = await reg().finalize(workflow(), a.docId, finalizeOf(a.version, 'COMPLIANCE'));
        expect(view.status).toBe('READY');
        expect((await reg().get(workflow(), a.docId)).id).toBe(a.docId);
        sealed = a.docId;
      });

      it("refuses another capability's documents with capability-not-granted, and lists only its own", async () => {
        expect(await refusal(reg().authorize(workflow(), file({ processRef: SIG, kind: 'FORM_ATTACHMENT', capability: 'FORMS' })))).toEqual({
          status: 403,
          code: 'capability-not-granted',
        });
        const form = await reg().authorize(writer(), file({ processRef: SIG, kind: 'FORM_SUBMISSION_PDF', capability: 'FORMS', filename: 'form.pdf' }));
        formPdf = form.docId;
        expect(await refusal(reg().get(workflow(), formPdf))).toEqual({ status: 403, code: 'capability-not-granted' });
        expect(await refusal(reg().remove(workflow(), formPdf))).toEqual({ status: 403, code: 'capability-not-granted' });
        const page = await reg().list(workflow(), { selector: { processRef: SIG }, limit: 50 });
        expect(page.items.map((d) => d.id)).toEqual([sealed]);
      });

      it('is refused in a tenant not subscribed to its capability (capability-not-subscribed)', async () => {
        const w: WorkflowCaller = { ...workflow(), tenantId: formsOnly.id };
        expect(await refusal(reg().authorize(w, file({ processRef: SIG, kind: 'GENERIC', capability: 'SIGNATURES' })))).toEqual({
          status: 403,
          code: 'capability-not-subscribed',
        });
        expect((await reg().list(w, { selector: { processRef: SIG }, limit: 5 })).items).toEqual([]);
      });

      it('still needs a started process for a SIGNATURES processRef (layer 3 applies to every caller)', async () => {
        expect(await refusal(reg().authorize(workflow(), file({ processRef: `${SIG}-unstarted`, kind: 'GENERIC', capability: 'SIGNATURES' })))).toEqual({
          status: 403,
          code: 'document-context-required',
        });
      });
    });

    describe('embed: form attachments under its own processRef', () => {
      let attachment: string;

      it('creates an anonymous FORM_ATTACHMENT under its processRef (no process needed: the FORMS carve-out)', async () => {
        const a = await reg().authorize(embed(), file({ processRef: EMBED, kind: 'FORM_ATTACHMENT', capability: 'FORMS', filename: 'cv.pdf' }));
        expect(a.document).toMatchObject({ status: 'PENDING', createdBy: null, createdByName: null, processRef: EMBED });
        expect((await reg().finalize(embed(), a.docId, finalizeOf(a.version, 'GOVERNANCE'))).status).toBe('READY');
        attachment = a.docId;
      });

      it('refuses another processRef, another kind and another capability: document-out-of-scope', async () => {
        const out = { status: 403, code: 'document-out-of-scope' };
        expect(await refusal(reg().authorize(embed(), file({ processRef: `${EMBED}-x`, kind: 'FORM_ATTACHMENT', capability: 'FORMS' })))).toEqual(out);
        expect(await refusal(reg().authorize(embed(), file({ processRef: EMBED, kind: 'FORM_SUBMISSION_PDF', capability: 'FORMS' })))).toEqual(out);
        expect(await refusal(reg().authorize(embed(), file({ processRef: EMBED, kind: 'GENERIC', capability: 'EMAIL' })))).toEqual(out);
        expect(await refusal(reg().get(embed(`${EMBED}-x`), attachment))).toEqual(out);
        expect(await refusal(reg().remove(embed(`${EMBED}-x`), attachment))).toEqual(out);
        expect(await refusal(reg().get(embed(SIG), formPdf))).toEqual(out);
        expect(await refusal(reg().processStarted(embed(), { processRef: EMBED, processInstanceId: 'run-e' }))).toEqual(out);
      });

      it('lists only the form attachments of its processRef; any other selector is document-out-of-scope', async () => {
        await reg().authorize(writer(), file({ processRef: EMBED, kind: 'FORM_SUBMISSION_PDF', capability: 'FORMS', filename: 'submission.pdf' }));
        expect((await reg().list(embed(), { selector: { processRef: EMBED }, limit: 50 })).items.map((d) => d.id)).toEqual([attachment]);
        expect(await refusal(reg().list(embed(), { selector: { processRef: SIG }, limit: 50 }))).toEqual({ status: 403, code: 'document-out-of-scope' });
        expect(await refusal(reg().list(embed(), { selector: { taskId: 'x' }, limit: 50 }))).toEqual({ status: 403, code: 'document-out-of-scope' });
      });

      it('removes its own attachment before submit', async () => {
        const removal = await reg().remove(embed(), attachment);
        expect(removal.document.status).toBe('DELETED');
        expect(removal.storageKey).toBe((await documentRow(ctx, attachment))!.storageKey);
      });
    });

    describe('signer: its mark under its signature request, reads within it', () => {
      let mark: string;

      it('creates and finalizes a SIGNATURE_ATTACHMENT under its processRef; createdBy signer:<id>', async () => {
        const a = await reg().authorize(signer('r1'), file({ processRef: SIG, kind: 'SIGNATURE_ATTACHMENT', capability: 'SIGNATURES', taskId: 'sign-r1' }));
        expect(a.document.createdBy).toBe('signer:r1');
        expect(await refusal(reg().finalize(signer('r2'), a.docId, finalizeOf(a.version, 'COMPLIANCE')))).toEqual({ status: 403, code: 'document-out-of-scope' });
        expect((await reg().finalize(signer('r1'), a.docId, finalizeOf(a.version, 'COMPLIANCE'))).status).toBe('READY');
        mark = a.docId;
      });

      it("reads its request's SIGNATURES documents (the sealed PDF, another signer's mark), nothing else", async () => {
        expect((await reg().get(signer('r2'), mark)).id).toBe(mark);
        expect((await reg().resolve(signer('r2'), sealed)).document.id).toBe(sealed);
        expect((await reg().list(signer('r2'), { selector: { processRef: SIG }, limit: 50 })).items.map((d) => d.id).sort()).toEqual([mark, sealed].sort());
        expect(await refusal(reg().get(signer('r2'), formPdf))).toEqual({ status: 403, code: 'document-out-of-scope' });
      });

      it('never deletes a recorded mark, and never creates outside its kind or processRef', async () => {
        const out = { status: 403, code: 'document-out-of-scope' };
        expect(await refusal(reg().remove(signer('r1'), mark))).toEqual(out);
        expect(await refusal(reg().authorize(signer('r1'), file({ processRef: SIG, kind: 'GENERIC', capability: 'SIGNATURES' })))).toEqual(out);
        expect(await refusal(reg().authorize({ ...signer('r1'), processRef: `${SIG}-other` }, file({ processRef: SIG, kind: 'SIGNATURE_ATTACHMENT', capability: 'SIGNATURES' })))).toEqual(out);
        expect(await refusal(reg().processStarted(signer('r1'), { processRef: SIG, processInstanceId: 'run-s' }))).toEqual(out);
      });

      it('discards its own PENDING upload (what a failed store does)', async () => {
        const a = await reg().authorize(signer('r3'), file({ processRef: SIG, kind: 'SIGNATURE_ATTACHMENT', capability: 'SIGNATURES' }));
        expect(await refusal(reg().remove(signer('r1'), a.docId, a.version))).toEqual({ status: 403, code: 'document-out-of-scope' });
        expect((await reg().remove(signer('r3'), a.docId, a.version)).document.status).toBe('DELETED');
      });
    });

    it("tenant isolation: every principal of another tenant gets 404 for this tenant's documents", async () => {
      const notFound = { status: 404, code: 'document-not-found' };
      const others = [
        { ...workflow(), tenantId: foreign.id },
        { ...embed(), tenantId: foreign.id },
        { ...signer('r1'), tenantId: foreign.id },
      ];
      for (const p of others) {
        expect(await refusal(reg().get(p, sealed))).toEqual(notFound);
        expect(await refusal(reg().resolve(p, sealed))).toEqual(notFound);
        expect(await refusal(reg().remove(p, sealed))).toEqual(notFound);
        expect(await refusal(reg().finalize(p, sealed, finalizeOf(1, 'COMPLIANCE')))).toEqual(notFound);
      }
      expect((await reg().list(others[0]!, { selector: { processRef: SIG }, limit: 50 })).items).toEqual([]);
      expect((await reg().list(others[2]!, { selector: { processRef: SIG }, limit: 50 })).items).toEqual([]);
    });
  });

  describe('X-Document-Principal on the HTTP routes', () => {
    const rec = new ResponseRecorder();
    const api = docApi(() => ctx.app, rec, INTERNAL_KEY);
    const header = (fields: object) => Buffer.from(JSON.stringify(fields)).toString('base64url');
    const workflowHeader = () => header({ kind: 'workflow', capability: 'SIGNATURES', workflowId: 'w-1' });

    it('is honoured only behind the internal key: without it 401, and the proxy routes still want a user', async () => {
      const headers = { 'X-Tenant-Id': t.id, 'X-Document-Principal': workflowHeader() };
      expectProblem(await api.internal('GET', `/${randomUUID()}`, null, undefined, { ...headers, 'X-Internal-Key': '' }), 401, 'internal-key-invalid');
      expectProblem(await api.get(`/api/documents/${randomUUID()}`, null, headers), 400, 'missing-header');
    });

    it('a principal reaches the registry rules over the internal routes (404 for an unknown document, 403 out of scope)', async () => {
      const headers = { 'X-Tenant-Id': t.id, 'X-Document-Principal': workflowHeader() };
      expectProblem(await api.internal('GET', `/${randomUUID()}`, null, undefined, headers), 404, 'document-not-found');
      const embedHeader = { 'X-Tenant-Id': t.id, 'X-Document-Principal': header({ kind: 'embed', capability: 'FORMS', processRef: 'e-1' }) };
      expectProblem(await api.internal('GET', `?processRef=e-2`, null, undefined, embedHeader), 403, 'document-out-of-scope');
    });

    it.each([
      ['not base64 JSON', '%%%'],
      ['an unknown kind', header({ kind: 'robot', capability: 'FORMS' })],
      ['an embed outside FORMS', header({ kind: 'embed', capability: 'SIGNATURES', processRef: 'p' })],
      ['an extra field', header({ kind: 'workflow', capability: 'FORMS', workflowId: 'w', tenantId: 'other' })],
    ])('400 malformed-header for %s', async (_why, value) => {
      expectProblem(await api.internal('GET', `/${randomUUID()}`, null, undefined, { 'X-Tenant-Id': t.id, 'X-Document-Principal': value }), 400, 'malformed-header');
    });

    it('400 when a call names both a user and a principal, or no tenant', async () => {
      expectProblem(await api.internal('GET', `/${randomUUID()}`, t.as('writer'), undefined, { 'X-Document-Principal': workflowHeader() }), 400, 'malformed-header');
      expectProblem(await api.internal('GET', `/${randomUUID()}`, null, undefined, { 'X-Document-Principal': workflowHeader() }), 400, 'missing-header');
    });

    it('storage-key leak check: no response of this file carried a storage key', async () => {
      await rec.expectNoStorageKeys(ctx);
    });
  });
});
