// End to end in Chromium: an outbound form is sent, the recipient opens the link, asks for a code,
// reads it from the real e-mail, opens the form (prefill shown, PREPARER field read-only), answers,
// the answers are autosaved, a server refusal lands on its field, the form is submitted and the
// formIntake workflow runs. A stale access token sends the page back to the code step.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFormActivities } from '../../../activities/forms';
import { startServer, type RunningServer } from '../../../api/server';
import { workflowIdFor } from '../../../db/outbox';
import type { OutboxDispatcher } from '../../../workers/dispatcher';
import { createWorkerIntegrations } from '../../../workers/worker-integrations';
import { useTestApp } from '../../support/app';
import { launchChromium } from '../../support/browser';
import { testS3Client } from '../../support/documents';
import { seedFormsTenant } from '../../support/forms';
import { codeIn, smtpUrl, waitForMail } from '../../support/mail';
import { outboundForm, send } from '../../support/outbound';
import { startTestWorker, testDispatcher, type TestWorker } from '../../support/temporal';

describe('hosted respond page in Chromium', () => {
  const ctx = useTestApp({ 'mail.smtp-url': smtpUrl(), deps: { s3: testS3Client() } });
  let api: RunningServer;
  let browser: Browser;
  let worker: TestWorker;
  let dispatcher: OutboxDispatcher;
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let def: { id: string; code: string };

  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    def = await outboundForm(ctx, t.asOwner);
    api = await startServer(ctx.deps, 0, '127.0.0.1');
    worker = await startTestWorker(createFormActivities(createWorkerIntegrations({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger, s3: ctx.deps.s3 })));
    dispatcher = testDispatcher(ctx, worker, ['FORMS']);
    browser = await launchChromium(ctx.settings);
  });
  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await api?.close();
  });

  const pageUrl = (token: string) => `http://127.0.0.1:${api.port}/respond/${token}`;
  const instance = async (id: string) => (await ctx.db.sql`select state, data from form_instances where id = ${id}`)[0]!;

  /** The code step in the browser: ask, read the mail, enter the code. */
  async function enterCode(page: Page, email: string, mailsBefore: number) {
    await page.locator('#send-code').click();
    await expect.poll(() => page.locator('#code-status').textContent()).toMatch(/a code is on its way/);
    const code = codeIn((await waitForMail(email, mailsBefore + 1)).at(-1)!);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await page.locator('#code').fill(wrong);
    await page.getByRole('button', { name: 'Open the form' }).click();
    await expect.poll(() => page.locator('#code-error').textContent()).toMatch(/did not open the form/);
    expect(await page.locator('#code').getAttribute('aria-invalid')).toBe('true');
    await page.locator('#code').fill(code);
    await page.getByRole('button', { name: 'Open the form' }).click();
    await page.locator('#hosted-form').waitFor();
  }

  /** A tampering client: the read-only field gets another value (the page re-disables it on the input event). */
  const force = (page: Page, value: string) =>
    page.locator('#f-account').evaluate((el, v) => {
      const input = el as HTMLInputElement;
      input.disabled = false;
      input.value = v;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, value);

  it('code from the e-mail, prefill, read-only PREPARER field, autosave, a server refusal on its field, submit, intake', async () => {
    const { r, email } = await send(ctx, t.asOwner, def.id, { prefill: { account: 'AC-1', amount: 5 } });
    expect(r.status, r.text).toBe(201);
    const token = r.json.token as string;
    expect(r.json.link).toMatch(new RegExp(`/respond/${token}$`));

    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const res = await page.goto(pageUrl(token));
    expect(res!.status()).toBe(200);
    const csp = (await res!.allHeaders())['content-security-policy']!;
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/unsafe-inline/);
    expect(await page.locator('#code-step').isVisible()).toBe(true);

    await enterCode(page, email, 1);
    expect((await instance(r.json.instanceId)).state).toBe('OPENED');

    // The prefill is shown; the PREPARER field is read-only, the others are not.
    expect(await page.locator('#f-account').inputValue()).toBe('AC-1');
    expect(await page.locator('#f-account').isDisabled()).toBe(true);
    expect(await page.locator('#f-amount').inputValue()).toBe('5');
    expect(await page.locator('#f-amount').isDisabled()).toBe(false);

    // Autosave: the answer reaches the server without a submit.
    await page.locator('#f-answer').fill('All correct');
    await expect.poll(() => page.locator('#form-status').textContent()).toBe('Saved.');
    expect((await instance(r.json.instanceId)).data).toMatchObject({ answer: 'All correct', account: 'AC-1' });

    // A value the browser cannot refuse (the field forced open): the server's 400 lands on its field.
    await force(page, 'AC-9');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#f-account-error').waitFor({ state: 'visible' });
    expect(await page.locator('#f-account').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#error-summary a').first().textContent()).toMatch(/^Account: /);
    expect((await instance(r.json.instanceId)).state).toBe('OPENED');

    await force(page, 'AC-1');
    await page.locator('#f-amount').fill('7');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#done').waitFor({ state: 'visible' });

    const submitted = await instance(r.json.instanceId);
    expect(submitted).toMatchObject({ state: 'SUBMITTED', data: { account: 'AC-1', amount: 7, answer: 'All correct' } });
    await dispatcher.dispatchOnce();
    const result = await worker.client.workflow.getHandle(workflowIdFor('FORMS', t.id, r.json.instanceId)).result();
    expect(result).toMatchObject({ instanceId: r.json.instanceId });
    expect((await instance(r.json.instanceId)).state).toBe('PROCESSED');

    // Opened again in the same tab: the form says it was sent.
    await page.reload();
    await page.locator('#done').waitFor({ state: 'visible' });
    // No script error (the refused calls above log their failed loads, which are expected).
    expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
    await page.close();
  });

  it('a stale access token goes back to the code step; the saved answers come back after a new code', async () => {
    const { r, email } = await send(ctx, t.asOwner, def.id);
    const token = r.json.token as string;
    const page = await browser.newPage();
    await page.goto(pageUrl(token));
    await enterCode(page, email, 1);
    await page.locator('#f-answer').fill('Half done');
    await expect.poll(() => page.locator('#form-status').textContent()).toBe('Saved.');

    // The session ends (a verification elsewhere replaces it): the next call is the one 404.
    await ctx.db.sql`update form_recipient_otps set access_token_hash = 'gone' where instance_id = ${r.json.instanceId}`;
    await page.reload();
    await page.locator('#code-step').waitFor({ state: 'visible' });
    // The code step is in the page's markup, visible while the stored token is still being tried.
    await expect.poll(() => page.locator('#code-status').textContent()).toMatch(/Ask for a new code/);
    expect(await page.locator('#hosted-form').count()).toBe(0);

    await ctx.db.sql`update form_recipient_otps set sent_at = now() - interval '1 hour' where instance_id = ${r.json.instanceId}`;
    await enterCode(page, email, 2);
    expect(await page.locator('#f-answer').inputValue()).toBe('Half done');
    await page.close();
  });

  it('answers 200 for any well-formed token (the API decides), the 404 page for a malformed one; the script is served by its hash', async () => {
    const unknown = await fetch(pageUrl('A'.repeat(43)));
    expect(unknown.status).toBe(200);
    const body = await unknown.text();
    expect(body).toContain('id="code-step"');
    const script = /<script nonce="[^"]+" src="(\/hosted\/respond\.[0-9a-f]{16}\.js)"><\/script>/.exec(body)![1]!;
    const js = await fetch(`http://127.0.0.1:${api.port}${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetch(`http://127.0.0.1:${api.port}/hosted/respond.0000000000000000.js`)).status).toBe(404);

    for (const bad of ['not%20a%20token', 'x'.repeat(101), '%00']) {
      const res = await fetch(pageUrl(bad));
      expect(res.status, bad).toBe(404);
      expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(await res.text()).toContain('This form is not available');
    }
  });
});
