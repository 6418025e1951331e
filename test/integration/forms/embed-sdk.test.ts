// End to end in Chromium: a host page on another origin embeds the form with /embed.js, the frame
// resizes, the form is validated in the browser, filled (with a file) and submitted, the host gets
// the submitted event with the instance id, the attachment is linked and the formIntake workflow
// completes. Forged messages are ignored; an origin not allowed by the form cannot frame it.
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

type HostEvent = { type: 'resize'; height: number } | { type: 'submitted'; instanceId: string };

const hostHtml = (api: number, token: string) => `<!doctype html><html><head><title>Shop</title></head><body>
<h1>Our shop</h1>
<div id="host" data-platform-form="${token}" data-title="Contact form"></div>
<script>
  window.hostEvents = [];
  const host = document.getElementById('host');
  host.addEventListener('platform-form:resize', (e) => hostEvents.push({ type: 'resize', height: e.detail.height }));
  host.addEventListener('platform-form:submitted', (e) => hostEvents.push({ type: 'submitted', instanceId: e.detail.instanceId }));
</script>
<script src="http://127.0.0.1:${api}/embed.js"></script>
</body></html>`;

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
  async function embedOn(originAllowed: boolean): Promise<{ page: Page; host: HostPage; token: string }> {
    const host = await serveHostPage();
    hosts.push(host);
    const origins = originAllowed ? [`http://localhost:${host.port}`] : ['https://shop.example'];
    const form = await publishedForm(ctx, t.asOwner, { draftSchema: ALL_TYPES_DRAFT, allowedEmbedOrigins: origins });
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
    await frame.locator('#hosted-form').waitFor();

    // The frame reports its height and the SDK sizes the iframe to it.
    await page.waitForFunction(() => (window as unknown as { hostEvents: HostEvent[] }).hostEvents.some((e) => e.type === 'resize'));
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

    // visibleIf: the follow-up question appears with the answer that needs it.
    expect(await frame.locator('[data-field="size_note"]').isVisible()).toBe(false);
    await frame.locator('#f-size-1').check();
    await frame.locator('[data-field="size_note"]').waitFor({ state: 'visible' });

    await frame.locator('#f-name').fill('Ann Example');
    await frame.locator('#f-email').fill('ann@example.com');
    await frame.locator('#f-email').fill('not an email');
    await frame.locator('#f-size_note').fill('Tall');
    await frame.locator('#f-agree').check();
    await frame.locator('#f-tags-1').check();
    await frame.locator('#f-age').fill('42');
    await frame.locator('#f-proof').setInputFiles({ name: 'proof.txt', mimeType: 'text/plain', buffer: Buffer.from('proof of address\n') });
    await frame.locator('#f-proof-files li').waitFor();
    expect(await frame.locator('#f-proof-files li span').textContent()).toBe('proof.txt');

    await frame.locator('button[type=submit]').click();
    expect(await frame.locator('#f-email-error').textContent()).toBe('must be an email address');
    await frame.locator('#f-email').fill('ann@example.com');
    await frame.locator('button[type=submit]').click();

    await page.waitForFunction(() => (window as unknown as { hostEvents: HostEvent[] }).hostEvents.some((e) => e.type === 'submitted'));
    const submitted = (await events(page)).filter((e) => e.type === 'submitted') as Array<{ instanceId: string }>;
    expect(submitted).toHaveLength(1);
    const instanceId = submitted[0]!.instanceId;
    expect(await frame.locator('#done').isVisible()).toBe(true);

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
    const frame = page.frameLocator('#host iframe');
    await frame.locator('#hosted-form').waitFor();
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

  it('an origin not in allowedEmbedOrigins cannot frame the form (frame-ancestors)', async () => {
    const { page } = await embedOn(false);
    const handle = await page.waitForSelector('#host iframe');
    const frame = (await handle.contentFrame())!;
    await frame.waitForLoadState();
    await expect.poll(() => frame.url()).toMatch(/^chrome-error:/);
    expect(await frame.locator('#hosted-form').count()).toBe(0);
    expect((await events(page)).filter((e) => e.type === 'resize')).toEqual([]);
    await page.close();
  });

});
