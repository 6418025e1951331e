// The submission PDF (spec Forms 7, "Render concurrency", 503 while saturated): POST
// /internal/render/form-pdf renders the print view in headless Chromium (Debian's chromium through
// playwright-core; one browser for this file, as one per node) and stores it at a registry-
// authorised key as a READY FORM_SUBMISSION_PDF document of the tenant. Real S3 and PostgreSQL.
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app';
import { physicalKey } from '../../../domain/documents/storage-key';
import type { FormSchema } from '../../../domain/forms/form-schema';
import { ChromiumPrinter } from '../../../integrations/chromium/printer';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { documentRow, seedDocTenant, testS3Client } from '../../support/documents';
import { uniqueId } from '../../support/fixtures';

const PATH = '/internal/render/form-pdf';
const DOC = '6f1c2a9e-0b7d-4c55-9a64-1f2e3d4c5b6a';
const schema: FormSchema = {
  title: 'Patient intake',
  fields: [
    { key: 'name', type: 'text', label: 'Full name', required: true },
    { key: 'notes', type: 'textarea', label: 'Notes' },
    { key: 'size', type: 'select', label: 'Shirt size', options: [{ value: 's', label: 'Small' }, { value: 'l', label: 'Large' }] },
    { key: 'colours', type: 'multiselect', label: 'Colours', options: [{ value: 'r', label: 'Crimson' }, { value: 'g', label: 'Emerald' }] },
    { key: 'agree', type: 'checkbox', label: 'Consent given' },
    { key: 'scan', type: 'file', label: 'Insurance card' },
    { key: 'ref', type: 'hidden', label: 'Campaign ref' },
    { key: 'bye', type: 'content', label: 'Thank you', help: 'We will call you back.' },
  ],
};
const TITLE = 'Patient intake form';
const data = {
  name: 'Ada Lovelace',
  notes: '<script>document.title="pwned"</script>',
  size: 'l',
  colours: ['r', 'g'],
  agree: true,
  scan: [DOC],
  ref: 'utm-secret',
};

describe('submission PDF: POST /internal/render/form-pdf', () => {
  const s3 = testS3Client();
  const printer = new ChromiumPrinter({ executablePath: '/usr/bin/chromium', timeoutMs: 30_000 });
  const ctx = useTestApp({ deps: { s3, pdfPrinter: printer } });
  let tenant: string;
  const dir = mkdtempSync(join(tmpdir(), 'render-pdf-'));

  const body = (over: Record<string, unknown> = {}) => ({
    tenantId: tenant,
    processRef: uniqueId('intake'),
    ownerEntityId: 'patient-42',
    title: TITLE,
    code: 'FRMK7QX05MAR26',
    version: 2,
    schema,
    data,
    fileNames: { [DOC]: 'card.png' },
    ...over,
  });
  const post = (b: unknown, app = ctx.app, key = INTERNAL_KEY) =>
    app.request(PATH, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Internal-Key': key }, body: JSON.stringify(b) });
  const pdfOf = async (docId: string) => {
    const row = (await documentRow(ctx, docId))!;
    const out = await s3.send(new GetObjectCommand({ Bucket: ctx.settings['s3.bucket'], Key: physicalKey(tenant, row.storageKey), VersionId: row.storageVersionId! }));
    return { row, bytes: Buffer.from(await out.Body!.transformToByteArray()) };
  };
  const poppler = (tool: 'pdftotext' | 'pdfinfo', bytes: Buffer) => {
    const file = join(dir, `${uniqueId('p')}.pdf`);
    writeFileSync(file, bytes);
    return execFileSync(tool, tool === 'pdftotext' ? ['-layout', file, '-'] : [file], { encoding: 'utf8' });
  };

  beforeAll(async () => {
    tenant = (await seedDocTenant(ctx)).id;
  });
  afterAll(async () => {
    await printer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let first: { docId: string; sizeBytes: number; sha256: string; processRef: string; bytes: Buffer };

  it('201 { docId, sizeBytes, sha256 }: a READY FORM_SUBMISSION_PDF document of the tenant, created by a FORMS workflow principal, bytes a PDF', async () => {
    const b = body();
    const res = await post(b);
    expect(res.status).toBe(201);
    const out = (await res.json()) as { docId: string; sizeBytes: number; sha256: string; status: string };
    expect(out).toMatchObject({ docId: expect.any(String), sizeBytes: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/), status: 'READY' });
    const { row, bytes } = await pdfOf(out.docId);
    expect(row).toMatchObject({
      tenantId: tenant,
      processRef: b.processRef,
      ownerEntityId: 'patient-42',
      kind: 'FORM_SUBMISSION_PDF',
      capability: 'FORMS',
      status: 'READY',
      contentType: 'application/pdf',
      filename: 'FRMK7QX05MAR26-v2-submission.pdf',
      createdBy: `workflow:forms:${tenant}:${b.processRef}`,
    });
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBe(out.sizeBytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(out.sha256);
    first = { ...out, processRef: b.processRef, bytes };
  });

  it('the PDF shows the field labels and values (pdftotext): option labels, lists, yes/no, file names, content text; hidden fields left out', () => {
    const text = poppler('pdftotext', first.bytes);
    for (const s of [TITLE, 'FRMK7QX05MAR26', 'Full name', 'Ada Lovelace', 'Shirt size', 'Large', 'Colours', 'Crimson', 'Emerald', 'Consent given', 'Yes', 'Insurance card', 'card.png', 'Thank you', 'We will call you back.']) {
      expect(text).toContain(s);
    }
    expect(text).not.toContain('Campaign ref');
    expect(text).not.toContain('utm-secret');
  });

  it('A4 pages (pdfinfo)', () => {
    expect(poppler('pdfinfo', first.bytes)).toMatch(/Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)|Page size:\s+\S+ x \S+ pts \(A4\)/);
  });

  it('a <script> in the data is printed as text and never runs (it would have set the document title)', () => {
    expect(poppler('pdftotext', first.bytes)).toContain('<script>document.title="pwned"</script>');
    const info = poppler('pdfinfo', first.bytes);
    expect(info).toMatch(new RegExp(`Title:\\s+${TITLE}`));
    expect(info).not.toContain('pwned');
  });

  it('the document is listed under its processRef like any FORMS document', async () => {
    const res = await ctx.app.request(`/api/internal/documents?processRef=${encodeURIComponent(first.processRef)}`, {
      headers: { 'X-Internal-Key': INTERNAL_KEY, 'X-Tenant-Id': tenant, 'X-User-Id': 'writer' },
    });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { items: { id: string; kind: string; status: string }[] };
    expect(page.items).toEqual([expect.objectContaining({ id: first.docId, kind: 'FORM_SUBMISSION_PDF', status: 'READY' })]);
  });

  it('wrong or missing internal key: 401 internal-key-invalid, nothing rendered', async () => {
    const wrong = await post(body(), ctx.app, 'not-the-key');
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { code: string }).code).toBe('internal-key-invalid');
    const missing = await ctx.app.request(PATH, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body()) });
    expect(missing.status).toBe(401);
  });

  it('a schema with error-level problems: 400 form-schema-invalid with problems; a malformed body: 400 validation-failed', async () => {
    const bad = await post(body({ schema: { title: 'x', fields: [{ key: 'a', type: 'nope', label: 'A' }] } }));
    expect(bad.status).toBe(400);
    const problem = (await bad.json()) as { code: string; problems: { path: string; level: string }[] };
    expect(problem.code).toBe('form-schema-invalid');
    expect(problem.problems.length).toBeGreaterThan(0);
    expect(problem.problems.every((p) => p.level === 'error')).toBe(true);
    for (const over of [{ version: 0 }, { data: [] }, { tenantId: 'Not A Tenant' }, { title: '' }, { data: { a: 'x\u0000' } }]) {
      const res = await post(body(over));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('validation-failed');
    }
  });

  it('a tenant not subscribed to FORMS: 403 capability-not-subscribed (the registry refuses the FORMS workflow principal)', async () => {
    const res = await post(body({ tenantId: uniqueId('nosub') }));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('capability-not-subscribed');
  });

  it('render concurrency: a flood of 20 parallel calls with queue-size 2 gets some 201s, the rest 503 render-queue-full with Retry-After, never a 500', async () => {
    const flooded = createApp({ ...ctx.deps, settings: { ...ctx.settings, 'render.queue-size': 2, 'render.concurrency': 1 } });
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(body(), flooded)));
    const statuses = answers.map((r) => r.status);
    const served = statuses.filter((s) => s === 201).length;
    const refused = answers.filter((r) => r.status === 503);
    expect(served + refused.length).toBe(20);
    expect(served).toBeGreaterThanOrEqual(1);
    expect(served).toBeLessThanOrEqual(3 * 2); // at most the running one and the queue, give or take a finished render
    expect(refused.length).toBeGreaterThanOrEqual(14);
    for (const r of refused) {
      expect(Number(r.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
      const p = (await r.json()) as { code: string; retryAfterSeconds: number };
      expect(p.code).toBe('render-queue-full');
    }
    for (const r of answers.filter((a) => a.status === 201)) {
      const { docId } = (await r.json()) as { docId: string };
      expect((await documentRow(ctx, docId))?.status).toBe('READY');
    }
  });

  it('Chromium that cannot start: 503 renderer-unavailable, never a 500; nothing stored', async () => {
    const broken = new ChromiumPrinter({ executablePath: '/nonexistent/chromium', timeoutMs: 5_000 });
    const app = createApp({ ...ctx.deps, pdfPrinter: broken });
    const b = body();
    const res = await post(b, app);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { code: string }).code).toBe('renderer-unavailable');
    const list = await ctx.app.request(`/api/internal/documents?processRef=${encodeURIComponent(b.processRef)}`, {
      headers: { 'X-Internal-Key': INTERNAL_KEY, 'X-Tenant-Id': tenant, 'X-User-Id': 'writer' },
    });
    expect(((await list.json()) as { items: unknown[] }).items).toEqual([]);
    await broken.close();
  });

  it('a crashed browser is relaunched on the next render', async () => {
    const own = new ChromiumPrinter({ executablePath: '/usr/bin/chromium', timeoutMs: 30_000 });
    const html = '<!doctype html><html><body>x<script>document.documentElement.setAttribute("data-ready","1")</script></body></html>';
    expect((await own.printPdf(html)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const browser = await (own as unknown as { browser: Promise<import('playwright-core').Browser> }).browser;
    const gone = new Promise((r) => browser.once('disconnected', r));
    const cdp = await browser.newBrowserCDPSession();
    await cdp.send('Browser.crash').catch(() => {});
    await gone;
    expect((await own.printPdf(html)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await own.close();
  });
});
