// The console's documents in Chromium (issue 21 §2): a case file's documents (state, size,
// created) listed by the registry as GET /api/documents lists them (filtered by the viewer's read
// grants, keyset-paged with its cursor), downloaded by the browser through the registry and the
// object store; the empty states; the refusal page without a document grant; another tenant's
// document is a 404 page; axe at both sizes.
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { expectAccessibleAt, rowCells, SIZES, storeWorkflowDocument, useConsoleBrowser } from '../../support/console-records';
import { seedDocTenant, testS3Client } from '../../support/documents';
import { uniqueId } from '../../support/fixtures';

describe('console records: documents', () => {
  const ctx = useTestApp({ deps: { s3: testS3Client() } });
  const web = useConsoleBrowser(ctx);
  let t: Awaited<ReturnType<typeof seedDocTenant>>;
  const processRef = uniqueId('case');
  const stored: Record<string, { id: string; bytes: Buffer }> = {};
  let foreignId: string;

  beforeAll(async () => {
    t = await seedDocTenant(ctx);
    // SIGNATURES and EMAIL documents need a started process for their case (FORMS alone may open one).
    const started = await client(ctx).post('/api/documents/process-started', t.as('writer'), { processRef, processInstanceId: 'run-console-records' });
    expect(started.status, started.text).toBe(200);
    const docs = [
      { name: 'intake.txt', capability: 'FORMS', kind: 'FORM_ATTACHMENT', bytes: Buffer.from('the intake note') },
      { name: 'mark.png', capability: 'SIGNATURES', kind: 'SIGNATURE_ATTACHMENT', bytes: Buffer.alloc(2048, 7) },
      { name: 'letter.txt', capability: 'EMAIL', kind: 'GENERIC', bytes: Buffer.from('a letter') },
    ] as const;
    for (const d of docs) {
      const view = await storeWorkflowDocument(ctx, { tenantId: t.id, capability: d.capability, kind: d.kind, processRef, filename: d.name, contentType: d.name.endsWith('.png') ? 'image/png' : 'text/plain', bytes: d.bytes });
      stored[d.name] = { id: view.id, bytes: d.bytes };
    }
    const other = await seedDocTenant(ctx);
    foreignId = (await storeWorkflowDocument(ctx, { tenantId: other.id, capability: 'FORMS', kind: 'FORM_ATTACHMENT', processRef, filename: 'theirs.txt', contentType: 'text/plain', bytes: Buffer.from('not yours') })).id;
  });

  const documents = () => `/console/${t.id}/documents`;

  it('asks for a case first, then lists its documents with state, size and created', async () => {
    const { page, status } = await web.open('reader', documents());
    expect(status).toBe(200);
    expect(await page.locator('.empty-state').innerText()).toContain('No case chosen yet');
    await page.getByLabel('Case reference (processRef)').fill(processRef);
    await Promise.all([page.waitForURL(/processRef=/), page.getByRole('button', { name: 'Show documents' }).click()]);
    expect(await rowCells(page, 'intake.txt')).toEqual(['intake.txt', 'FORM_ATTACHMENT', 'FORMS', 'READY', '15 B', expect.stringMatching(/UTC$/)]);
    expect(await rowCells(page, 'mark.png')).toEqual(['mark.png', 'SIGNATURE_ATTACHMENT', 'SIGNATURES', 'READY', '2.0 KB', expect.stringMatching(/UTC$/)]);
    expect(await page.locator('tbody tr').count()).toBe(3);
    expect(await page.locator('main').innerText()).not.toContain('theirs.txt');
  });

  it('shows only what the viewer may read, as the API does', async () => {
    const api = await client(ctx).get(`/api/documents?processRef=${processRef}`, t.as('formsOnly'));
    expect(api.json.items.map((d: { filename: string }) => d.filename)).toEqual(['intake.txt']);
    const { page } = await web.open('formsOnly', `${documents()}?processRef=${processRef}`);
    await page.locator('tbody tr').first().waitFor();
    expect(await page.locator('tbody td:first-child').allInnerTexts()).toEqual(['intake.txt']);
  });

  it('pages with the API cursor ("More")', async () => {
    const api = await client(ctx).get(`/api/documents?processRef=${processRef}&limit=2`, t.as('reader'));
    const { page } = await web.open('reader', `${documents()}?processRef=${processRef}&limit=2`);
    const more = page.getByRole('link', { name: 'More' });
    expect(new URL((await more.getAttribute('href'))!, web.base()).searchParams.get('cursor')).toBe(api.json.nextCursor);
    await Promise.all([page.waitForURL(/cursor=/), more.click()]);
    expect(await page.locator('tbody td:first-child').allInnerTexts()).toEqual(['letter.txt']);
  });

  it('a file downloads in the browser with its bytes', async () => {
    const { page } = await web.open('reader', `${documents()}?processRef=${processRef}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'mark.png' }).click()]);
    expect(download.suggestedFilename()).toBe('mark.png');
    expect(Buffer.compare(await readFile((await download.path())!), stored['mark.png']!.bytes)).toBe(0);
  });

  it('a case without documents says so', async () => {
    const { page } = await web.open('reader', `${documents()}?processRef=${uniqueId('empty')}`);
    expect(await page.locator('.empty-state').innerText()).toBe('There are no documents you may read in this selection.');
  });

  it('two selectors at once are a 400 page, not a 500', async () => {
    const { page, status } = await web.open('reader', `${documents()}?processRef=a&taskId=b`);
    expect(status).toBe(400);
    expect(await page.locator('main').innerText()).toContain('Give one of a case reference, a task id or an owner id');
  });

  it.each([
    ['a case file', () => `${documents()}?processRef=${processRef}`],
    ["a document's bytes", () => `${documents()}/${stored['intake.txt']!.id}/content`],
  ])('a member without a document grant gets the refusal page for %s, and nothing of it', async (_what, path) => {
    const { page, status } = await web.open('nobody', path());
    expect(status).toBe(403);
    const text = await page.locator('main').innerText();
    expect(text).toContain("You don't have access to this page");
    expect(text).not.toContain('intake.txt');
  });

  it("another tenant's document is a 404 page", async () => {
    const { page, status } = await web.open('reader', `${documents()}/${foreignId}/content`);
    expect(status).toBe(404);
    expect(await page.locator('main h2').first().innerText()).toBe('The document was not found');
  });

  it.each(SIZES)('axe: a case file at %s', async (_size, viewport) => {
    await expectAccessibleAt(web.open, 'reader', `${documents()}?processRef=${processRef}`, viewport, 'records-documents');
  });
});
