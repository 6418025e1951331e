// End to end in Chromium: an outbound form is sent, the recipient opens the link, asks for a code,
// reads it from the real e-mail, opens the form (focus on its heading, the tab named after it,
// prefill shown, the PREPARER field read-only with a note saying why), answers, the answers are
// autosaved, a server refusal lands on its field, the form is submitted and the formIntake
// workflow runs. A required file field is answered by uploading on the page (no dead end). A
// second code request within the cooldown is told on the page. A stale access token sends the
// page back to the code step. Every wait is on the server's answer or the page's state.
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
import { endCodeCooldowns, FILE_RESPONSE_DRAFT, FILE_RESPONSE_ROLES, openHostedPage } from '../../support/embed-forms';
import { formsApi, seedFormsTenant } from '../../support/forms';
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
  let fileDef: { id: string };

  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    def = await outboundForm(ctx, t.asOwner);
    const forms = formsApi(ctx);
    fileDef = await forms.create(t.asOwner, { kind: 'OUTBOUND', draftSchema: FILE_RESPONSE_DRAFT });
    expect((await forms.put(`/api/form-definitions/${fileDef.id}/outbound-config`, t.asOwner, { roles: FILE_RESPONSE_ROLES })).status).toBe(200);
    expect((await forms.checkIn(t.asOwner, fileDef.id)).status).toBe(201);
    expect((await forms.step(t.asOwner, fileDef.id, 'sign-off')).status).toBe(200);
    expect((await forms.step(t.asOwner, fileDef.id, 'versions/1/publish')).status).toBe(200);
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

  /** The recipient API's answer to `method` on the form (`path` after the token), as the page receives it. */
  const answerTo = (page: Page, token: string, method: string, path = '') =>
    page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname === `/api/public/form-instances/${token}${path}`);

  /**
   * Runs `edit`, then waits for the autosave carrying its result (`saves` judges the PATCH's data:
   * an earlier save may still be on its way): the server's 200, then the page saying so.
   */
  async function autosaved(page: Page, token: string, edit: () => Promise<unknown>, saves: (data: Record<string, unknown>) => boolean) {
    const saved = page.waitForResponse(
      (r) =>
        r.request().method() === 'PATCH' &&
        new URL(r.url()).pathname === `/api/public/form-instances/${token}` &&
        saves((r.request().postDataJSON() as { data: Record<string, unknown> }).data),
    );
    await edit();
    expect((await saved).status()).toBe(200);
    await page.locator('#form-status', { hasText: 'Saved.' }).waitFor();
  }
  const files = (key: string, n: number) => (data: Record<string, unknown>) => Array.isArray(data[key]) && (data[key] as unknown[]).length === n;

  /** The code step in the browser: ask, read the mail, a wrong code first, then the right one. */
  async function enterCode(page: Page, token: string, email: string, mailsBefore: number) {
    const asked = answerTo(page, token, 'POST', '/otp');
    await page.locator('#send-code').click();
    expect((await asked).status()).toBe(202);
    await page.locator('#code-status', { hasText: 'a code is on its way' }).waitFor();
    const code = codeIn((await waitForMail(email, mailsBefore + 1)).at(-1)!);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await page.locator('#code').fill(wrong);
    const refused = answerTo(page, token, 'POST', '/verify');
    await page.getByRole('button', { name: 'Open the form' }).click();
    expect((await refused).status()).toBe(404);
    await page.locator('#code-error', { hasText: 'did not open the form' }).waitFor();
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

  it('code from the e-mail, focus on the heading, prefill, read-only PREPARER field with its note, autosave, a server refusal on its field, submit, intake', async () => {
    const { r, email } = await send(ctx, t.asOwner, def.id, { prefill: { account: 'AC-1', amount: 5 } });
    expect(r.status, r.text).toBe(201);
    const token = r.json.token as string;
    expect(r.json.link).toMatch(new RegExp(`/respond/${token}$`));

    const { page, errors, status, close } = await openHostedPage(browser, pageUrl(token));
    expect(status).toBe(200);
    expect(await page.title()).toBe('Open your form');
    expect(await page.locator('#code-step').isVisible()).toBe(true);

    await enterCode(page, token, email, 1);
    expect((await instance(r.json.instanceId)).state).toBe('OPENED');
    // Focus moves to the form's heading; the tab is named after the form.
    await page.waitForFunction(() => document.activeElement?.id === 'form-title');
    expect(await page.title()).toBe('Account review');

    // The prefill is shown; the PREPARER field is read-only and says why, the others are not.
    expect(await page.locator('#f-account').inputValue()).toBe('AC-1');
    expect(await page.locator('#f-account').isDisabled()).toBe(true);
    expect(await page.locator('#f-account').getAttribute('aria-describedby')).toBe('f-account-locked f-account-error');
    expect(await page.locator('#f-account-locked').textContent()).toBe('Filled in by the sender of this form; you cannot change it here.');
    expect(await page.locator('#f-amount').inputValue()).toBe('5');
    expect(await page.locator('#f-amount').isDisabled()).toBe(false);
    expect(await page.locator('#f-amount-locked').count()).toBe(0);

    // Autosave: the answer reaches the server without a submit.
    await autosaved(page, token, () => page.locator('#f-answer').fill('All correct'), (data) => data.answer === 'All correct');
    expect((await instance(r.json.instanceId)).data).toMatchObject({ answer: 'All correct', account: 'AC-1' });

    // A value the browser cannot refuse (the field forced open): the server's 400 lands on its field.
    await force(page, 'AC-9');
    const refused = answerTo(page, token, 'POST', '/submit');
    await page.getByRole('button', { name: 'Send' }).click();
    expect((await refused).status()).toBe(400);
    await page.locator('#f-account-error').waitFor({ state: 'visible' });
    expect(await page.locator('#f-account').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#error-summary a').first().textContent()).toMatch(/^Account: /);
    expect((await instance(r.json.instanceId)).state).toBe('OPENED');

    // Put back, the field's error goes at once (not at the next submit).
    await force(page, 'AC-1');
    expect(await page.locator('#f-account-error').isHidden()).toBe(true);
    await page.locator('#f-amount').fill('7');
    const sent = answerTo(page, token, 'POST', '/submit');
    await page.getByRole('button', { name: 'Send' }).click();
    expect((await sent).status()).toBe(200);
    await page.locator('#done').waitFor({ state: 'visible' });
    expect(await page.locator('h1:visible').allTextContents()).toEqual(['Thank you']);

    const submitted = await instance(r.json.instanceId);
    expect(submitted).toMatchObject({ state: 'SUBMITTED', data: { account: 'AC-1', amount: 7, answer: 'All correct' } });
    await dispatcher.dispatchOnce();
    const result = await worker.client.workflow.getHandle(workflowIdFor('FORMS', t.id, r.json.instanceId)).result();
    expect(result).toMatchObject({ instanceId: r.json.instanceId });
    expect((await instance(r.json.instanceId)).state).toBe('PROCESSED');

    // Opened again in the same tab: the form says it was sent.
    await page.reload();
    await page.locator('#done').waitFor({ state: 'visible' });
    expect(errors).toEqual([]);
    await close();
  });

  it('no dead end: a required file field of the recipient is answered by uploading on the page; the file goes with the submission', async () => {
    const { r, email } = await send(ctx, t.asOwner, fileDef.id, { prefill: { account: 'EX-4' } });
    expect(r.status, r.text).toBe(201);
    const token = r.json.token as string;
    const { page, errors, close } = await openHostedPage(browser, pageUrl(token));
    // The saved files are listed before the form is shown: a form on screen before its handlers
    // were on let a quick Send submit it the browser's way, unchecked (a loaded run did).
    const listUrl = `**/api/public/form-instances/${token}/documents`;
    let shownBeforeList: boolean | undefined;
    await page.route(listUrl, async (route) => {
      if (route.request().method() === 'GET') shownBeforeList ??= await page.locator('#hosted-form').isVisible();
      await route.continue();
    });
    await enterCode(page, token, email, 1);
    expect(shownBeforeList).toBe(false);
    await page.unroute(listUrl);

    // Submitting without the file: the field says it is required.
    await page.locator('#f-answer').fill('Train to Leeds');
    await page.getByRole('button', { name: 'Send' }).click();
    expect(await page.locator('#f-receipt-error').textContent()).toBe('is required');
    expect(await page.locator('#f-receipt').isDisabled()).toBe(false);

    // Upload, remove, upload again: each answered by the recipient's attachment routes, then autosaved.
    const stored = answerTo(page, token, 'POST', '/documents');
    await autosaved(page, token, () => page.locator('#f-receipt').setInputFiles({ name: 'wrong.txt', mimeType: 'text/plain', buffer: Buffer.from('not this one\n') }), files('receipt', 1));
    expect((await stored).status()).toBe(201);
    await page.locator('#f-receipt-files li', { hasText: 'wrong.txt' }).waitFor();
    // The error went with the upload; the input never claims "No file chosen" beside the list.
    expect(await page.locator('#f-receipt-error').isHidden()).toBe(true);
    expect(await page.locator('#f-receipt').inputValue()).toBe('');
    const removed = answerTo(page, token, 'DELETE', `/documents/${(await ctx.db.sql`select id from documents where filename = 'wrong.txt'`)[0]!.id}`);
    await autosaved(page, token, () => page.getByRole('button', { name: 'Remove wrong.txt' }).click(), files('receipt', 0));
    expect((await removed).status()).toBe(200);
    expect(await page.locator('#f-receipt-files li').count()).toBe(0);
    await autosaved(page, token, () => page.locator('#f-receipt').setInputFiles({ name: 'receipt.txt', mimeType: 'text/plain', buffer: Buffer.from('ticket 42.50\n') }), files('receipt', 1));
    const [doc] = await ctx.db.sql`select id, status, owner_entity_id, process_ref from documents where filename = 'receipt.txt'`;
    expect(doc).toMatchObject({ status: 'READY', owner_entity_id: r.json.instanceId, process_ref: `SM-${r.json.instanceId}` });
    expect((await ctx.db.sql`select data from form_instances where id = ${r.json.instanceId}`)[0]!.data.receipt).toEqual([doc!.id]);

    // Reopened, the page lists the saved file by name.
    await page.reload();
    await page.locator('#f-receipt-files li', { hasText: 'receipt.txt' }).waitFor();
    expect(await page.locator('#f-receipt-files-label').isVisible()).toBe(true);

    const sent = answerTo(page, token, 'POST', '/submit');
    await page.getByRole('button', { name: 'Send' }).click();
    expect((await sent).status()).toBe(200);
    await page.locator('#done').waitFor({ state: 'visible' });
    expect(await instance(r.json.instanceId)).toMatchObject({ state: 'SUBMITTED', data: { account: 'EX-4', answer: 'Train to Leeds', receipt: [doc!.id] } });
    await dispatcher.dispatchOnce();
    await worker.client.workflow.getHandle(workflowIdFor('FORMS', t.id, r.json.instanceId)).result();
    expect((await instance(r.json.instanceId)).state).toBe('PROCESSED');
    expect(errors).toEqual([]);
    await close();
  });

  it('a second code request within the cooldown is told on the page (429 with Retry-After), not "a code is on its way"', async () => {
    const { r, email } = await send(ctx, t.asOwner, def.id);
    const token = r.json.token as string;
    const { page, close } = await openHostedPage(browser, pageUrl(token));
    const first = answerTo(page, token, 'POST', '/otp');
    await page.locator('#send-code').click();
    expect((await first).status()).toBe(202);
    await waitForMail(email, 2);
    const again = answerTo(page, token, 'POST', '/otp');
    await page.locator('#send-code').click();
    const answer = await again;
    expect(answer.status()).toBe(429);
    const seconds = Number(await answer.headerValue('retry-after'));
    expect(seconds).toBeGreaterThan(0);
    await page.locator('#code-status', { hasText: 'No new code was sent' }).waitFor();
    expect(await page.locator('#code-status').textContent()).toContain(`ask again in ${seconds} seconds`);
    expect(await page.locator('#code-status').textContent()).not.toContain('on its way');
    // Focus waits in the code box, where the code from the first mail goes.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('code');
    await close();
  });

  it('a stale access token goes back to the code step; the saved answers come back after a new code', async () => {
    const { r, email } = await send(ctx, t.asOwner, def.id);
    const token = r.json.token as string;
    const { page, close } = await openHostedPage(browser, pageUrl(token));
    await enterCode(page, token, email, 1);
    await autosaved(page, token, () => page.locator('#f-answer').fill('Half done'), (data) => data.answer === 'Half done');

    // The session ends (a verification elsewhere replaces it): the next call is the one 404.
    await ctx.db.sql`update form_recipient_otps set access_token_hash = 'gone' where instance_id = ${r.json.instanceId}`;
    const gone = answerTo(page, token, 'GET');
    await page.reload();
    expect((await gone).status()).toBe(404);
    await page.locator('#code-status', { hasText: 'Ask for a new code' }).waitFor();
    expect(await page.locator('#code-step').isVisible()).toBe(true);
    expect(await page.locator('#hosted-form').count()).toBe(0);

    // Past the cooldown (its row and the code's own sent time), a new code opens the saved answers.
    await ctx.db.sql`update form_recipient_otps set sent_at = now() - interval '1 hour' where instance_id = ${r.json.instanceId}`;
    await endCodeCooldowns(ctx);
    await enterCode(page, token, email, 2);
    expect(await page.locator('#f-answer').inputValue()).toBe('Half done');
    await close();
  });

  it('answers 200 for any well-formed token (the API decides), the 404 page for a malformed one; the script is served by its hash', async () => {
    const unknown = await fetch(pageUrl('A'.repeat(43)));
    expect(unknown.status).toBe(200);
    const body = await unknown.text();
    expect(body).toContain('id="code-step"');
    const csp = unknown.headers.get('content-security-policy')!;
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/unsafe-inline/);
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
