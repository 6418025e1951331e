// End to end in Chromium: a host page on another origin embeds the form with /embed.js, the frame
// resizes, the form is validated in the browser (each error withdrawn as soon as its field is
// fixed), filled (with a file) and submitted, the host gets the submitted event with the instance
// id, the attachment is linked and the formIntake workflow completes. Forged messages are ignored.
// An origin the form does not allow gets the SDK's message and `platform-form:error` instead of a
// broken frame (and a frame made by hand is still refused by frame-ancestors).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFormActivities } from '../../../activities/forms';
import { startServer, type RunningServer } from '../../../api/server';
import { workflowIdFor } from '../../../db/outbox';
import type { OutboxDispatcher } from '../../../workers/dispatcher';
import { createWorkerIntegrations } from '../../../workers/worker-integrations';
import { launchChromium, serveHostPage, type HostPage } from '../../support/browser';
import { useTestApp } from '../../support/app';
import { testS3Client } from '../../support/documents';
import { ALL_TYPES_DRAFT } from '../../support/embed-forms';
import { seedFormsTenant } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';
import { startTestWorker, testDispatcher, type TestWorker } from '../../support/temporal';

type HostEvent =
  | { type: 'ready' }
  | { type: 'resize'; height: number }
  | { type: 'submitted'; instanceId: string }
  | { type: 'error'; reason: string; message: string };

const hostHtml = (api: number, token: string) => `<!doctype html><html><head><title>Shop</title></head><body>
<h1>Our shop</h1>
<div id="host" data-platform-form="${token}" data-title="Contact form"></div>
<script>
  window.hostEvents = [];
  const host = document.getElementById('host');
  host.addEventListener('platform-form:ready', () => hostEvents.push({ type: 'ready' }));
  host.addEventListener('platform-form:resize', (e) => hostEvents.push({ type: 'resize', height: e.detail.height }));
  host.addEventListener('platform-form:submitted', (e) => hostEvents.push({ type: 'submitted', instanceId: e.detail.instanceId }));
  document.addEventListener('platform-form:error', (e) => hostEvents.push({ type: 'error', reason: e.detail.reason, message: e.detail.message }));
</script>
<script src="http://127.0.0.1:${api}/embed.js"></script>
</body></html>`;

/** The host page's events as they arrive: a test waits for the one that matters. */
const hostEvent = (page: Page, type: HostEvent['type']) =>
  page.waitForFunction((t) => (window as unknown as { hostEvents: HostEvent[] }).hostEvents.some((e) => e.type === t), type);

describe('embed SDK and hosted page in Chromium', () => {
  const ctx = useTestApp({ 'forms.embed-key': EMBED_KEY, 'forms.rate-limit.per-ip-per-minute': 100_000, deps: { s3: testS3Client() } });
  let api: RunningServer;
  let browser: Browser;
  let worker: TestWorker;
  let dispatcher: OutboxDispatcher;
  const hosts: HostPage[] = [];
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;

  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    api = await startServer(ctx.deps, 0, '127.0.0.1');
    worker = await startTestWorker(createFormActivities(createWorkerIntegrations({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger, s3: ctx.deps.s3 })));
    dispatcher = testDispatcher(ctx, worker, ['FORMS']);
    browser = await launchChromium(ctx.settings);
  });
  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await Promise.all(hosts.map((h) => h.close()));
    await api?.close();
  });

  /** A host page on http://localhost:<port> embedding a form whose allowed origins are computed from that port. */
  async function embedOn(originAllowed: boolean, token?: string): Promise<{ page: Page; host: HostPage; token: string }> {
    const host = await serveHostPage();
    hosts.push(host);
    const origins = originAllowed ? [`http://localhost:${host.port}`] : ['https://shop.example'];
    const form = token ? { token } : await publishedForm(ctx, t.asOwner, { draftSchema: ALL_TYPES_DRAFT, allowedEmbedOrigins: origins });
    host.set(hostHtml(api.port, form.token));
    const page = await browser.newPage();
    await page.goto(`http://localhost:${host.port}/`);
    return { page, host, token: form.token };
  }

  const events = (page: Page) => page.evaluate(() => (window as unknown as { hostEvents: HostEvent[] }).hostEvents);

  it('embeds, resizes, validates in the browser, uploads, submits, and the intake workflow completes', async () => {
    const { page } = await embedOn(true);
    const iframe = page.locator('#host iframe');
    expect(await iframe.getAttribute('sandbox')).toBe('allow-scripts allow-forms allow-same-origin');
    expect(await iframe.getAttribute('title')).toBe('Contact form');
    const frame = page.frameLocator('#host iframe');
    await hostEvent(page, 'ready');

    // The frame reports its height and the SDK sizes the iframe to it.
    await hostEvent(page, 'resize');
    const firstResize = (await events(page)).find((e) => e.type === 'resize') as { height: number };
    expect(firstResize.height).toBeGreaterThan(480);
    expect(await iframe.evaluate((el) => (el as HTMLElement).style.height)).toBe(`${(await events(page)).filter((e) => e.type === 'resize').at(-1)!.height}px`);

    // Client-side validation (the server's rules): nothing is sent, errors are shown and announced.
    const instancesBefore = Number((await ctx.db.sql`select count(*)::int as n from form_instances`)[0]!.n);
    await frame.locator('button[type=submit]').click();
    await frame.locator('#error-summary').waitFor({ state: 'visible' });
    expect(await frame.locator('#error-summary').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await frame.locator('#f-name').getAttribute('aria-invalid')).toBe('true');
    expect(await frame.locator('#f-name-error').textContent()).toBe('is required');
    expect(await frame.locator('#f-email-error').isVisible()).toBe(true);
    expect(Number((await ctx.db.sql`select count(*)::int as n from form_instances`)[0]!.n)).toBe(instancesBefore);

    // Each error goes as soon as its field is valid (on input), not at the next submit; the others stay.
    await frame.locator('#f-name').fill('Ann Example');
    expect(await frame.locator('#f-name').getAttribute('aria-invalid')).toBeNull();
    expect(await frame.locator('#f-name-error').isHidden()).toBe(true);
    expect(await frame.locator('#error-summary li').allTextContents()).not.toContainEqual(expect.stringMatching(/^Your <script>name<\/script>:/));
    expect(await frame.locator('#f-email').getAttribute('aria-invalid')).toBe('true');
    await frame.locator('#f-phone').fill('call me');
    await frame.locator('button[type=submit]').click();
    expect(await frame.locator('#f-phone-error').textContent()).toMatch(/^must be a telephone number/);
    await frame.locator('#f-phone').fill('+44 20 7946 0000');
    expect(await frame.locator('#f-phone-error').isHidden()).toBe(true);
    expect(await frame.locator('#f-phone').getAttribute('aria-invalid')).toBeNull();
    // Radios and checkboxes are 24 × 24 CSS px targets (WCAG 2.2 target size), their labels wider still.
    for (const id of ['#f-size-0', '#f-tags-0', '#f-agree']) {
      const box = (await frame.locator(id).boundingBox())!;
      expect(Math.min(box.width, box.height), id).toBeGreaterThanOrEqual(24);
    }

    // visibleIf: the follow-up question appears with the answer that needs it.
    expect(await frame.locator('[data-field="size_note"]').isVisible()).toBe(false);
    await frame.locator('#f-size-1').check();
    await frame.locator('[data-field="size_note"]').waitFor({ state: 'visible' });

    await frame.locator('#f-email').fill('ann@example.com');
    expect(await frame.locator('#f-email-error').isHidden()).toBe(true);
    await frame.locator('#f-email').fill('not an email');
    await frame.locator('#f-size_note').fill('Tall');
    await frame.locator('#f-agree').check();
    await frame.locator('#f-tags-1').check();
    await frame.locator('#f-age').fill('42');
    await frame.locator('#f-proof').setInputFiles({ name: 'proof.txt', mimeType: 'text/plain', buffer: Buffer.from('proof of address\n') });
    await frame.locator('#f-proof-files li').waitFor();
    expect(await frame.locator('#f-proof-files li span').textContent()).toBe('proof.txt');
    // No "No file chosen" beside the list: the native input is emptied and drawn as its button; the list has its label.
    expect(await frame.locator('#f-proof').inputValue()).toBe('');
    expect(((await frame.locator('#f-proof').boundingBox())?.width ?? 0) <= 1).toBe(true);
    expect(await frame.locator('label.file-button[for="f-proof"]').textContent()).toBe('Choose files');
    expect(await frame.locator('#f-proof-files-label').isVisible()).toBe(true);
    expect(await frame.locator('#f-proof-files').getAttribute('aria-labelledby')).toBe('f-proof-files-label');

    await frame.locator('button[type=submit]').click();
    expect(await frame.locator('#f-email-error').textContent()).toBe('must be an email address');
    await frame.locator('#f-email').fill('ann@example.com');
    expect(await frame.locator('#error-summary').isHidden()).toBe(true);
    await frame.locator('button[type=submit]').click();

    await hostEvent(page, 'submitted');
    const submitted = (await events(page)).filter((e) => e.type === 'submitted') as Array<{ instanceId: string }>;
    expect(submitted).toHaveLength(1);
    const instanceId = submitted[0]!.instanceId;
    expect(await frame.locator('#done').isVisible()).toBe(true);
    // One heading level 1 on the page after submit: the thank-you.
    expect(await frame.locator('h1:visible').allTextContents()).toEqual(['Thank you']);

    const [instance] = await ctx.db.sql`select state, data, context from form_instances where id = ${instanceId}`;
    expect(instance).toMatchObject({ state: 'SUBMITTED', data: { name: 'Ann Example', email: 'ann@example.com', size: 'l', size_note: 'Tall', agree: true, tags: ['b'], age: 42 } });
    const docs = await ctx.db.sql`select id, process_ref, owner_entity_id, status, filename from documents where process_ref = ${instance!.context.processRef}`;
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ owner_entity_id: instanceId, status: 'READY', filename: 'proof.txt' });
    expect(instance!.data.proof).toEqual([docs[0]!.id]);

    await dispatcher.dispatchOnce();
    const result = await worker.client.workflow.getHandle(workflowIdFor('FORMS', t.id, instanceId)).result();
    expect(result).toMatchObject({ instanceId });
    expect((await ctx.db.sql`select state from form_instances where id = ${instanceId}`)[0]!.state).toBe('PROCESSED');
    await page.close();
  });

  it('ignores forged messages: a wrong origin, a wrong nonce, an unknown type', async () => {
    const { page } = await embedOn(true);
    await hostEvent(page, 'ready');
    const nonce = await page.locator('#host iframe').evaluate((el) => new URLSearchParams((el as HTMLIFrameElement).src.split('#')[1]).get('nonce'));
    expect(nonce).toMatch(/^[0-9a-f]{32}$/);
    // The right nonce from the wrong origin (the host page itself).
    await page.evaluate((n) => window.postMessage({ type: 'submitted', nonce: n, instanceId: 'forged-origin' }, '*'), nonce);
    const handle = await page.locator('#host iframe').elementHandle();
    const inner = (await handle!.contentFrame())!;
    // The frame's own origin and window, with a wrong nonce, then the right nonce with an unknown type.
    await inner.evaluate(() => window.parent.postMessage({ type: 'submitted', nonce: 'f'.repeat(32), instanceId: 'forged-nonce' }, '*'));
    await inner.evaluate((n) => window.parent.postMessage({ type: 'steal', nonce: n, instanceId: 'forged-type' }, '*'), nonce);
    // A genuine message after them: once it has arrived, the forged ones have been handled too.
    await inner.evaluate((n) => window.parent.postMessage({ type: 'resize', nonce: n, height: 777 }, '*'), nonce);
    await page.waitForFunction(() => (window as unknown as { hostEvents: HostEvent[] }).hostEvents.some((e) => e.type === 'resize' && e.height === 777));
    expect((await events(page)).filter((e) => e.type === 'submitted')).toEqual([]);
    await page.close();
  });

  it('an origin not in allowedEmbedOrigins: the SDK shows why and fires platform-form:error origin-not-allowed, no broken frame', async () => {
    const { page, host } = await embedOn(false);
    await hostEvent(page, 'error');
    const [error] = (await events(page)).filter((e) => e.type === 'error') as Array<{ reason: string; message: string }>;
    expect(error).toEqual({ type: 'error', reason: 'origin-not-allowed', message: expect.stringContaining(`http://localhost:${host.port}`) });
    expect(await page.locator('#host iframe').count()).toBe(0);
    const message = page.locator('#host .platform-form-message');
    expect(await message.getAttribute('data-reason')).toBe('origin-not-allowed');
    expect(await message.textContent()).toContain('This form cannot be shown on this site');
    expect((await message.boundingBox())!.height).toBeLessThan(200);
    expect((await events(page)).filter((e) => e.type !== 'error')).toEqual([]);
    await page.close();
  });

  it('frame-ancestors still refuses a frame made by hand on an origin the form does not allow', async () => {
    const host = await serveHostPage();
    hosts.push(host);
    const form = await publishedForm(ctx, t.asOwner, { draftSchema: ALL_TYPES_DRAFT, allowedEmbedOrigins: ['https://shop.example'] });
    host.set(`<!doctype html><html><head><title>By hand</title></head><body><iframe title="Form" src="http://127.0.0.1:${api.port}/embed/${form.token}"></iframe></body></html>`);
    const page = await browser.newPage();
    // The refused frame commits Chromium's error page: that navigation is the state to wait for.
    const refused = page.waitForEvent('framenavigated', (f) => f !== page.mainFrame() && f.url().startsWith('chrome-error:'));
    await page.goto(`http://localhost:${host.port}/`);
    const frame = await refused;
    expect(await frame.locator('#hosted-form').count()).toBe(0);
    await page.close();
  });

  it('a token without a form: platform-form:error form-not-available and the message', async () => {
    const { page } = await embedOn(true, 'not-a-token');
    await hostEvent(page, 'error');
    expect((await events(page)).map((e) => (e.type === 'error' ? e.reason : e.type))).toEqual(['form-not-available']);
    expect(await page.locator('#host .platform-form-message').textContent()).toContain('This form is not available');
    expect(await page.locator('#host iframe').count()).toBe(0);
    await page.close();
  });

});
