// The hosted signing page in Chromium against the stand-in of the public signing API
// (test/support/sign-api-stand-in.ts): headers and 404s, the pages rendered by pdf.js, stepping
// through the recipient's fields, a drawn signature arriving as a PNG, the typed path, consent,
// the API's refusals, the 404 and e-mail-code states, a phone-sized screen with touch drawing,
// and basic accessibility rules. The real API and the session check are joined in by the lead.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testSettings } from '../../support/app';
import { launchChromium } from '../../support/browser';
import { ACCESS_TOKEN, FIELDS, OTP_CODE, startSignApiStandIn, TOKENS, type SignApiStandIn } from '../../support/sign-api-stand-in';

const BUYER_FIELDS = FIELDS.filter((f) => f.signerId === 'buyer');
const PNG_MAGIC = '89504e470d0a1a0a';

describe('hosted signing page', () => {
  let standIn: SignApiStandIn;
  let browser: Browser;

  beforeAll(async () => {
    standIn = await startSignApiStandIn();
    browser = await launchChromium(testSettings());
  });
  afterAll(async () => {
    await browser?.close();
    await standIn?.close();
  });

  /** A fresh page with every console error and CSP violation collected. */
  async function openPage(token: string, options: Parameters<Browser['newContext']>[0] = {}) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The browser's own favicon request is no error of the page.
    page.on('console', (m) => m.type() === 'error' && !m.location().url.endsWith('/favicon.ico') && errors.push(m.text()));
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`)),
    );
    const res = await page.goto(`${standIn.url}/sign/${token}`);
    return { page, errors, status: res!.status() };
  }

  const ceremonyReady = (page: Page) => page.locator('.field-box').first().waitFor();

  async function drawOn(page: Page, selector: string) {
    await page.locator(selector).scrollIntoViewIfNeeded();
    const box = (await page.locator(selector).boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height * 0.7);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 20 + i * 15, box.y + box.height * (0.7 - 0.4 * Math.sin(i / 2)), { steps: 2 });
    await page.mouse.up();
  }

  const lastPost = () => standIn.posts.at(-1)!;

  it('answers the page with the hosted pages headers, 404 for unknown or malformed tokens, the script and worker by hash', async () => {
    const res = await fetch(`${standIn.url}/sign/${TOKENS.open}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([A-Za-z0-9_-]+)'/.exec(csp)![1]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("worker-src 'self'");
    expect(csp).not.toContain('unsafe');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain(`nonce="${nonce}"`);
    const again = (await fetch(`${standIn.url}/sign/${TOKENS.open}`)).headers.get('content-security-policy');
    expect(again).not.toContain(nonce);

    const data = JSON.parse(/<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(html)![1]!) as { apiUrl: string; workerSrc: string };
    expect(data.apiUrl).toBe(`/api/public/sign-instance/${TOKENS.open}`);
    const script = /src="(\/hosted\/sign\.[0-9a-f]{16}\.js)"/.exec(html)![1]!;
    const scriptRes = await fetch(standIn.url + script);
    expect(scriptRes.status).toBe(200);
    expect(scriptRes.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetch(standIn.url + script.replace(/\.[0-9a-f]{16}\./, '.0000000000000000.'))).status).toBe(404);
    expect(data.workerSrc).toMatch(/^\/hosted\/pdfjs\/worker\.[0-9a-f]{16}\.mjs$/);
    const workerRes = await fetch(standIn.url + data.workerSrc);
    expect(workerRes.status).toBe(200);
    expect(workerRes.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${standIn.url}/hosted/pdfjs/worker.0000000000000000.mjs`)).status).toBe(404);

    for (const token of ['tokUnknown_0123456789abc', 'bad%21token', 'x'.repeat(101)]) {
      const notFound = await fetch(`${standIn.url}/sign/${token}`);
      expect(notFound.status, token).toBe(404);
      expect(notFound.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await notFound.text()).toContain('This signing link is not available');
    }
  });

  it("renders the pages, highlights only this recipient's fields and steps through them", async () => {
    const { page, errors } = await openPage(TOKENS.open);
    await ceremonyReady(page);
    // pdf.js parsed in its own worker from our origin (not its main-thread fallback).
    expect(page.workers().map((w) => new URL(w.url()).pathname)).toEqual([expect.stringMatching(/^\/hosted\/pdfjs\/worker\.[0-9a-f]{16}\.mjs$/)]);
    expect(await page.locator('.page canvas').count()).toBe(2);
    // Each page has ink: pdf.js drew the text onto a white page.
    const inked = await page.locator('.page canvas').evaluateAll((canvases) =>
      (canvases as HTMLCanvasElement[]).map((c) => {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let dark = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i + 3]! > 0 && d[i]! < 128) dark++;
        return dark;
      }),
    );
    expect(inked.every((n) => n > 100), String(inked)).toBe(true);
    expect(await page.locator('.field-box').count()).toBe(BUYER_FIELDS.length);
    expect(await page.locator('[data-field-id="f-seller"]').count()).toBe(0);
    expect(await page.locator('#signer').textContent()).toBe('Signing as: Buyer');
    expect(await page.locator('#routing').textContent()).toContain('step 1 of 2');
    expect(await page.locator('#variables').textContent()).toContain('Hauptstraße 1 <b>not bold</b>');

    // Ordered by page, then top to bottom: text (y 200), signature (600), date (610); page 2: signature, name, initials.
    const order = ['f-text', 'f-sig-1', 'f-date', 'f-sig-2', 'f-name', 'f-init'];
    expect(await page.locator('#step-status').textContent()).toMatch(/^Field 1 of 6: text, page 1/);
    expect(await page.locator('#step-status').getAttribute('aria-live')).toBe('polite');
    expect(await page.locator('#prev-field').isDisabled()).toBe(true);
    for (let i = 1; i < order.length; i++) {
      await page.locator('#next-field').click();
      expect(await page.locator('.field-box.current').getAttribute('data-field-id')).toBe(order[i]);
      expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.fieldId)).toBe(order[i]);
    }
    expect(await page.locator('#step-status').textContent()).toMatch(/^Field 6 of 6: initials, page 2/);
    expect(await page.locator('#next-field').textContent()).toBe('Go to finish');
    await page.locator('#next-field').click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('signature-legend');
    await page.locator('#prev-field').click();
    expect(await page.locator('#step-status').textContent()).toMatch(/Field 5 of 6: name, page 2\. It is filled in for you/);
    // A field's box leads to its control.
    await page.locator('[data-field-id="f-text"]').click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('text-0');
    await page.locator('[data-field-id="f-sig-2"]').click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('signature-legend');
    expect(errors).toEqual([]);
  });

  it('requires the consent and a signature, then posts the drawn signature and initials as PNGs and the text entries', async () => {
    const { page, errors } = await openPage(TOKENS.open);
    await ceremonyReady(page);
    const before = standIn.posts.length;
    await page.locator('#finish').click();
    const summary = page.locator('#error-summary');
    await summary.waitFor();
    expect(await summary.getAttribute('role')).toBe('alert');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('error-summary');
    const text = await summary.textContent();
    expect(text).toContain('Draw your signature');
    expect(text).toContain('Draw your initials');
    expect(text).toContain('Tick the box');
    expect(await page.locator('#consent').getAttribute('aria-invalid')).toBe('true');
    expect(standIn.posts.length).toBe(before);

    await drawOn(page, '#signature-pad');
    await drawOn(page, '#initials-pad');
    await page.locator('#text-0').fill('Parking space 12');
    // The boxes preview what will be drawn.
    expect(await page.locator('[data-field-id="f-sig-1"] img').count()).toBe(1);
    expect(await page.locator('[data-field-id="f-text"]').textContent()).toBe('Parking space 12');
    await page.locator('#finish').click();
    expect(await summary.textContent()).toContain('Tick the box');
    expect(await summary.textContent()).not.toContain('Draw your signature');
    expect(standIn.posts.length).toBe(before);

    await page.locator('#consent').check();
    await page.locator('#finish').click();
    await page.locator('#done').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('done-title');
    expect(await page.locator('#ceremony').isHidden()).toBe(true);
    const post = lastPost();
    expect(post.token).toBe(TOKENS.open);
    expect(post.body.consent).toBe(true);
    expect(post.body.fieldValues).toEqual({ 'f-text': 'Parking space 12' });
    expect(post.body.typedName).toBeUndefined();
    for (const key of ['signaturePng', 'initialsPng']) {
      const base64 = post.body[key] as string;
      expect(base64, key).toMatch(/^[A-Za-z0-9+/]+=*$/);
      const bytes = Buffer.from(base64, 'base64');
      expect(bytes.subarray(0, 8).toString('hex')).toBe(PNG_MAGIC);
      expect(bytes.length).toBeLessThan(512 * 1024);
    }
    expect(errors).toEqual([]);
  });

  it('signs with a typed name and initials from the name, without drawing', async () => {
    const { page, errors } = await openPage(TOKENS.open);
    await ceremonyReady(page);
    await page.getByLabel('Type', { exact: true }).check();
    expect(await page.locator('#signature-pad').isHidden()).toBe(true);
    await page.locator('#typed-name').fill('  Ada Lovelace ');
    await page.getByLabel('From my name').check();
    expect(await page.locator('[data-field-id="f-sig-1"]').textContent()).toBe('Ada Lovelace');
    await page.getByLabel(/I agree to sign this document electronically/).check();
    await page.getByRole('button', { name: 'Finish and sign' }).click();
    await page.locator('#done').waitFor();
    const post = lastPost();
    expect(post.body).toEqual({ consent: true, typedName: 'Ada Lovelace' });
    expect(errors).toEqual([]);
  });

  it('shows the API refusals: 409 already signed, 400 with its detail and errors', async () => {
    for (const [token, expected] of [
      [TOKENS.signed, ['already signed', 'This recipient has already signed.']],
      [TOKENS.refused, ['The signature was refused.', 'signaturePng: not a PNG image']],
    ] as const) {
      const { page } = await openPage(token);
      await ceremonyReady(page);
      await page.getByLabel('Type', { exact: true }).check();
      await page.locator('#typed-name').fill('Ada Lovelace');
      await page.getByLabel('From my name').check();
      await page.locator('#consent').check();
      await page.locator('#finish').click();
      const summary = page.locator('#error-summary');
      await expect.poll(() => summary.textContent()).toContain(expected[0]);
      expect(await summary.textContent()).toContain(expected[1]);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('error-summary');
      expect(await page.locator('#done').isHidden()).toBe(true);
    }
  });

  it('shows the not-available state when the API answers 404', async () => {
    const { page, status } = await openPage(TOKENS.gone);
    expect(status).toBe(200);
    await page.locator('#unavailable').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('unavailable-title');
    expect(await page.locator('#ceremony').isHidden()).toBe(true);
  });

  it('asks for the e-mail code first when the API says so, then signs with the access token', async () => {
    const { page, errors } = await openPage(TOKENS.otp);
    await page.locator('#otp-step').waitFor();
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await expect.poll(() => page.locator('#code-status').textContent()).toContain('a code is on its way');
    await page.getByLabel('Code from the e-mail').fill('000000');
    await page.getByRole('button', { name: 'Open the document' }).click();
    await expect.poll(() => page.locator('#code-error').textContent()).toContain('The code is wrong or has expired.');
    expect(await page.locator('#code').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Code from the e-mail').fill(OTP_CODE);
    await page.getByRole('button', { name: 'Open the document' }).click();
    await ceremonyReady(page);
    expect(standIn.sessionAuth.filter((s) => s.token === TOKENS.otp).map((s) => s.authorization)).toEqual([undefined, `Bearer ${ACCESS_TOKEN}`]);
    await page.getByLabel('Type', { exact: true }).check();
    await page.locator('#typed-name').fill('Ada Lovelace');
    await page.getByLabel('From my name').check();
    await page.locator('#consent').check();
    await page.locator('#finish').click();
    await page.locator('#done').waitFor();
    expect(lastPost().authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    // The tab keeps the session: a reload opens the document without a new code.
    await page.reload();
    await ceremonyReady(page);
    // The refused code (400) and the first session read (401) are the only failed loads.
    expect(errors.filter((e) => !/status of (400|401)/.test(e))).toEqual([]);
  });

  it('fits a 390x844 phone screen without horizontal scrolling and draws by touch', async () => {
    const { page, errors } = await openPage(TOKENS.open, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
    await ceremonyReady(page);
    await page.locator('#finish').scrollIntoViewIfNeeded();
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      pages: Array.from(document.querySelectorAll('.page')).map((p) => p.getBoundingClientRect().right),
      pad: document.getElementById('signature-pad')!.getBoundingClientRect().right,
    }));
    expect(widths.client).toBe(390);
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    for (const right of [...widths.pages, widths.pad]) expect(right).toBeLessThanOrEqual(390);

    // A finger stroke through the DevTools protocol (touch events, as a phone sends them).
    await page.locator('#signature-pad').scrollIntoViewIfNeeded();
    const box = (await page.locator('#signature-pad').boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    const at = (i: number) => [{ x: box.x + 20 + i * 20, y: box.y + 40 + (i % 3) * 25 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
    for (let i = 1; i <= 12; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(i) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect.poll(() => page.locator('[data-field-id="f-sig-1"] img').count()).toBe(1);
    await page.getByLabel('From my name').check();
    await page.locator('#consent').check();
    await page.locator('#finish').click();
    await page.locator('#done').waitFor();
    expect(Buffer.from(lastPost().body.signaturePng as string, 'base64').subarray(0, 8).toString('hex')).toBe(PNG_MAGIC);
    expect(errors).toEqual([]);
  });

  it('passes basic accessibility rules: names for every control, unique ids, labels, language, one h1, no positive tabindex', async () => {
    const { page } = await openPage(TOKENS.open);
    await ceremonyReady(page);
    const report = await page.evaluate(() => {
      const problems: string[] = [];
      const ids = Array.from(document.querySelectorAll('[id]')).map((e) => e.id);
      for (const id of new Set(ids)) if (ids.filter((i) => i === id).length > 1) problems.push(`duplicate id ${id}`);
      if (!document.documentElement.lang) problems.push('no lang');
      if (document.querySelectorAll('h1').length !== 1) problems.push('not one h1');
      const nameOf = (el: Element) =>
        (el.getAttribute('aria-label') ??
          (el.id ? Array.from(document.querySelectorAll(`label[for="${el.id}"]`)).map((l) => l.textContent).join(' ') : '') ??
          '') || (el.tagName === 'BUTTON' ? el.textContent : '');
      for (const el of document.querySelectorAll('input, button, select, textarea, canvas'))
        if (!nameOf(el)?.trim()) problems.push(`no accessible name: ${el.outerHTML.slice(0, 80)}`);
      for (const el of document.querySelectorAll('[aria-describedby]'))
        for (const ref of el.getAttribute('aria-describedby')!.split(/\s+/)) if (!document.getElementById(ref)) problems.push(`missing describedby ${ref}`);
      for (const el of document.querySelectorAll('[tabindex]')) if (Number(el.getAttribute('tabindex')) > 0) problems.push(`positive tabindex ${el.id}`);
      for (const img of document.querySelectorAll('img')) if (!img.hasAttribute('alt')) problems.push('img without alt');
      for (const fs of document.querySelectorAll('fieldset')) if (!fs.querySelector('legend')) problems.push('fieldset without legend');
      return problems;
    });
    expect(report).toEqual([]);
    // Every field box and control is reachable with the keyboard: Tab reaches the first box and Finish.
    const reached = new Set<string>();
    await page.locator('#page-title').focus();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      reached.add(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.fieldId ?? document.activeElement!.id));
    }
    for (const id of ['next-field', 'f-text', 'f-init', 'signature-mode-draw', 'text-0', 'consent', 'finish']) expect(reached, id).toContain(id);
  });
});
