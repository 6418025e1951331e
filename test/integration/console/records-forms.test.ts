// The console's forms records in Chromium (issue 21 §2): form definitions (key, version, state),
// their instances (status, the submission PDF), one instance's submitted data as a definition
// list with its PDF downloaded by the browser under its own identity; the refusal page for a
// member without the FORMS grant; another tenant's instance and PDF are 404 pages; axe at both sizes.
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { expectAccessibleAt, rowCells, SIZES, storeWorkflowDocument, useConsoleBrowser } from '../../support/console-records';
import { testS3Client } from '../../support/documents';
import { uniqueId } from '../../support/fixtures';
import { seedFormsTenant } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';
import { makePdf } from '../../support/signatures';

describe('console records: forms', () => {
  const ctx = useTestApp({ 'forms.embed-key': EMBED_KEY, deps: { s3: testS3Client() } });
  const web = useConsoleBrowser(ctx);
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let form: { id: string; code: string };
  let instanceId: string;
  let pdf: { id: string; bytes: Buffer };
  let foreign: { instanceId: string; pdfId: string };

  /** A submission through the public embed API, and the submission PDF the intake would store for it. */
  async function submitted(tenantId: string, token: string, data: Record<string, unknown>) {
    const processRef = uniqueId('case');
    const r = await client(ctx).post(`/api/public/embed/${token}/submit`, null, { data, processRef });
    expect(r.status, r.text).toBe(201);
    const bytes = await makePdf(1);
    const doc = await storeWorkflowDocument(ctx, {
      tenantId,
      capability: 'FORMS',
      kind: 'FORM_SUBMISSION_PDF',
      processRef,
      ownerEntityId: r.json.id,
      filename: 'submission.pdf',
      contentType: 'application/pdf',
      bytes,
    });
    await storeWorkflowDocument(ctx, {
      tenantId,
      capability: 'FORMS',
      kind: 'FORM_ATTACHMENT',
      processRef,
      ownerEntityId: r.json.id,
      filename: 'card.txt',
      contentType: 'text/plain',
      bytes: Buffer.from('scan of a card'),
    });
    return { instanceId: r.json.id as string, pdf: { id: doc.id, bytes } };
  }

  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    const published = await publishedForm(ctx, t.as('editor'));
    form = published.def;
    ({ instanceId, pdf } = await submitted(t.id, published.token, { name: 'Ada Lovelace', email: 'ada@example.com' }));
    const other = await seedFormsTenant(ctx);
    const otherForm = await publishedForm(ctx, other.as('editor'));
    const theirs = await submitted(other.id, otherForm.token, { name: 'Grace Hopper', email: 'grace@example.com' });
    foreign = { instanceId: theirs.instanceId, pdfId: theirs.pdf.id };
  });

  const forms = () => `/console/${t.id}/forms`;

  it('lists the form definitions with key, state and published version', async () => {
    const { page, status } = await web.open('reader', forms());
    expect(status).toBe(200);
    expect(await rowCells(page, form.code)).toEqual([form.code, 'Intake', 'INBOUND', 'PUBLISHED', '1', expect.stringMatching(/UTC$/), `Instances of ${form.code}`]);
  });

  it("a definition's instances: status, submitted and the submission PDF link", async () => {
    const { page } = await web.open('reader', forms());
    await Promise.all([page.waitForURL(/definitionCode=/), page.getByRole('link', { name: `Instances of ${form.code}` }).click()]);
    expect(await page.locator('h1').innerText()).toBe(`Instances of ${form.code}`);
    const cells = await rowCells(page, `Instance ${instanceId.slice(0, 8)}`);
    expect(cells.slice(1, 3)).toEqual([`${form.code} v1`, 'SUBMITTED']);
    expect(await page.getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe(`/console/${t.id}/documents/${pdf.id}/content`);
  });

  it("an instance's page: submitted data as a definition list, attachments, and the PDF downloaded by the browser", async () => {
    const { page } = await web.open('reader', `${forms()}/instances`);
    await Promise.all([page.waitForURL(new RegExp(`/instances/${instanceId}$`)), page.getByRole('link', { name: `Instance ${instanceId.slice(0, 8)}` }).click()]);
    const data = page.locator('dl.submitted-data');
    expect(await data.locator('dt').allInnerTexts()).toEqual(['name', 'email']);
    expect(await data.locator('dd').allInnerTexts()).toEqual(['Ada Lovelace', 'ada@example.com']);
    expect(await page.locator('main').innerText()).toContain('card.txt');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the submission PDF' }).click()]);
    expect(download.suggestedFilename()).toBe('submission.pdf');
    expect(Buffer.compare(await readFile((await download.path())!), pdf.bytes)).toBe(0);
  });

  it('the download answers the stored bytes with the PDF type, no-store', async () => {
    const res = await web.fetchAs('reader', `/console/${t.id}/documents/${pdf.id}/content`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.compare(res.body, pdf.bytes)).toBe(0);
  });

  it.each([
    ['the definitions', () => forms()],
    ['the instances', () => `${forms()}/instances`],
    ['an instance', () => `${forms()}/instances/${instanceId}`],
    ['the submission PDF', () => `/console/${t.id}/documents/${pdf.id}/content`],
  ])('a member without the FORMS grant gets the refusal page for %s, and no data', async (_what, path) => {
    const { page, status } = await web.open('outsider', path());
    expect(status).toBe(403);
    const text = await page.locator('main').innerText();
    expect(text).toContain("You don't have access to this page");
    expect(text).not.toContain('Ada Lovelace');
    expect(text).not.toContain(form.code);
  });

  it.each([
    ["another tenant's instance", () => `${forms()}/instances/${foreign.instanceId}`],
    ["another tenant's submission PDF", () => `/console/${t.id}/documents/${foreign.pdfId}/content`],
  ])('%s is a 404 page', async (_what, path) => {
    const { page, status } = await web.open('reader', path());
    expect(status).toBe(404);
    expect(await page.locator('main h2').first().innerText()).toMatch(/was not found$/);
    expect(await page.locator('main').innerText()).not.toContain('Grace Hopper');
  });

  it('an unknown status filter is a 400 page naming the statuses', async () => {
    const { page, status } = await web.open('reader', `${forms()}/instances?state=LOST`);
    expect(status).toBe(400);
    expect(await page.locator('main').innerText()).toContain('The status must be one of DRAFT');
  });

  it.each(SIZES)('axe: the definitions page at %s', async (_size, viewport) => {
    await expectAccessibleAt(web.open, 'reader', forms(), viewport, 'records-form-definitions');
  });

  it.each(SIZES)('axe: the instances page at %s', async (_size, viewport) => {
    await expectAccessibleAt(web.open, 'reader', `${forms()}/instances`, viewport, 'records-form-instances');
  });

  it.each(SIZES)("axe: an instance's page at %s", async (_size, viewport) => {
    await expectAccessibleAt(web.open, 'reader', `${forms()}/instances/${instanceId}`, viewport, 'records-form-instance');
  });
});
