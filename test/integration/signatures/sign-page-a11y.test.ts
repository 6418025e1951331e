// The hosted signing page as people with assistive technology, keyboards and phones meet it
// (issue 22 §4 and §6), through the real ceremony (worker, dispatcher, production sealer): axe
// (WCAG 2.2 AA and best practice) finds no serious or critical violation in any state (code step,
// wrong code, the ceremony at its top, a field stepped to, the error summary, zoomed in, done,
// signed-waiting, sealed with the download, 404) at 1280×800 and 390×844; the page opens at its
// top with the signer, the order and the first field one tap away; field targets reach 24×24 CSS
// px while the drawn field keeps its size; zoom by buttons and by pinch; each page's text is there
// for a screen reader; pdf.js's data files come from our origin; a keyboard alone completes it.
// Every wait is on a state (an element, a server answer, an event), never a bare timeout.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../api/server';
import { client, type Who } from '../../support/app';
import { launchChromium } from '../../support/browser';
import { CAMPAIGNS, ceremonySchema, eventually, openCampaignWorld, publishedDefinition, SIGN_BASE, useCeremonyApp, type CeremonyWorld } from '../../support/ceremony';
import { expectNoSeriousAxe, focusVisible, openHostedPage, tabTo, VIEWPORTS } from '../../support/embed-forms';
import { codeIn, waitForMail } from '../../support/mail';
import { newAddress } from '../../support/outbound';
import { ceremonyReady } from '../../support/sign-browser';

describe('hosted signing page: axe in every state at both sizes, opening, targets, zoom, text, keyboard', () => {
  const ctx = useCeremonyApp({ 'forms.rate-limit.recipient-per-ip-per-minute': 100_000 });
  const api = client(ctx);
  let world: CeremonyWorld;
  let server: RunningServer;
  let browser: Browser;
  let editor: Who;
  let definitionId: string;
  let otpDefinitionId: string;

  beforeAll(async () => {
    ({ world, editor, definitionId } = await openCampaignWorld(ctx));
    otpDefinitionId = await publishedDefinition(ctx, editor, ceremonySchema('sequential', 'EMAIL_OTP'));
    server = await startServer(ctx.deps, 0, '127.0.0.1');
    browser = await launchChromium(ctx.settings);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await world?.stop();
  });

  const url = (token: string) => `http://127.0.0.1:${server.port}/sign/${token}`;

  async function campaign(definition = definitionId) {
    const people = [
      { signerId: 'employee', name: 'Eva Employee', email: newAddress('emp') },
      { signerId: 'manager', name: 'Mara Manager', email: newAddress('mgr') },
    ];
    const r = await api.post(CAMPAIGNS, editor, { definitionId: definition, recipients: people, variables: { salary: '52,000 EUR' } });
    expect(r.status, r.text).toBe(201);
    const token = (signerId: string) => r.json.recipients.find((x: { signerId: string }) => x.signerId === signerId).token as string;
    // The invitation first: the ceremony mails only recipients who have not signed yet.
    await waitForMail(people[0]!.email);
    return { id: r.json.id as string, people, token };
  }

  /** The manager signs through the API once armed; the campaign is then sealed by the ceremony. */
  async function sealAfterManager(c: Awaited<ReturnType<typeof campaign>>) {
    await eventually(() => api.get(`${SIGN_BASE}/${c.token('manager')}`, null).then((r) => r.status), (s) => s === 200);
    expect((await api.post(`${SIGN_BASE}/${c.token('manager')}`, null, { typedName: 'Mara Manager', consent: true })).status).toBe(200);
    await eventually(() => api.get(`${CAMPAIGNS}/${c.id}`, editor).then((r) => r.json.sealStatus), (s) => s === 'SEALED');
    // The ceremony's closing step makes the copy links after the seal: the signer's page offers one from then on.
    await eventually(() => fetch(url(c.token('employee'))).then((r) => r.text()), (html) => html.includes('Download the signed PDF'));
  }

  for (const { name, viewport } of VIEWPORTS) {
    it(`${name}: no serious or critical axe violation in any state`, async () => {
      const missing = await openHostedPage(browser, url('tokUnknown_0123456789abc'), viewport);
      expect(missing.status).toBe(404);
      await expectNoSeriousAxe(missing.page, '404');
      await missing.close();

      // The code step: as opened, after a code was sent, after a wrong code.
      const otp = await campaign(otpDefinitionId);
      const code = await openHostedPage(browser, url(otp.token('employee')), viewport);
      await code.page.locator('#otp-step').waitFor();
      await expectNoSeriousAxe(code.page, 'code step');
      await code.page.locator('#send-code').click();
      await code.page.locator('#code-status', { hasText: 'a code is on its way' }).waitFor();
      const sent = codeIn((await waitForMail(otp.people[0]!.email, 2)).at(-1)!);
      await expectNoSeriousAxe(code.page, 'code sent');
      await code.page.locator('#code').fill(sent === '000000' ? '111111' : '000000');
      await code.page.locator('#open-document').click();
      await code.page.locator('#code-error:not([hidden])').waitFor();
      await expectNoSeriousAxe(code.page, 'wrong code');
      await code.close();

      const c = await campaign();
      const { page, errors, close } = await openHostedPage(browser, url(c.token('employee')), viewport);
      await ceremonyReady(page);
      await expectNoSeriousAxe(page, 'ceremony at its top');
      await page.locator('#next-field').click();
      await page.locator('.field-box.current').waitFor();
      await expectNoSeriousAxe(page, 'a field stepped to');
      await page.locator('#finish').click();
      await page.locator('#error-summary:not([hidden])').waitFor();
      await expectNoSeriousAxe(page, 'error summary');
      await page.locator('#zoom-in').click();
      await page.locator('#zoom-level', { hasText: '125%' }).waitFor();
      await expectNoSeriousAxe(page, 'zoomed in');
      await page.locator('#zoom-fit').click();
      await page.getByLabel('Type', { exact: true }).check();
      await page.locator('#typed-name').fill('Eva Employee');
      await page.locator('#text-0').fill('Berlin office');
      await page.locator('#consent').check();
      await page.locator('#finish').click();
      await page.locator('#done').waitFor();
      await expectNoSeriousAxe(page, 'done');
      const reload = await page.reload();
      expect(reload!.status()).toBe(200);
      await page.locator('h1', { hasText: 'You have signed' }).waitFor();
      await expectNoSeriousAxe(page, 'signed, waiting for the others');
      await sealAfterManager(c);
      await page.reload();
      await page.locator('a', { hasText: 'Download the signed PDF' }).waitFor();
      await expectNoSeriousAxe(page, 'sealed, the download');
      expect(errors.filter((e) => !/status of 40\d/.test(e))).toEqual([]);
      await close();
    });
  }

  for (const { name, viewport } of VIEWPORTS) {
    it(`${name}: opens at its top with the signer, the order and the first field one tap away; a small step bar; 24 px targets`, async () => {
      const c = await campaign();
      const { page, close } = await openHostedPage(browser, url(c.token('employee')), viewport);
      await ceremonyReady(page);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('page-title');
      const inView = await page.evaluate(() =>
        ['signer', 'routing', 'next-field'].map((id) => {
          const r = document.getElementById(id)!.getBoundingClientRect();
          return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
        }),
      );
      expect(inView).toEqual([true, true, true]);
      expect(await page.locator('#signer').textContent()).toBe('Signing as: Eva Employee (Employee)');
      expect(await page.locator('#routing').textContent()).toBe('Signing order: you are step 1 of 2.');
      expect(await page.locator('#variables dt').allTextContents()).toEqual(['Salary']);
      const bar = (await page.locator('.stepper').boundingBox())!;
      expect(bar.height).toBeLessThan(64);

      // Every field's hit area covers 24 x 24 CSS px around its centre; the drawn mark keeps the field's size.
      const targets = await page.locator('.field-box').evaluateAll((boxes) =>
        boxes.map((b) => {
          const r = b.getBoundingClientRect();
          const mark = b.querySelector('.field-mark')!.getBoundingClientRect();
          const cx = r.left + r.width / 2;
          const cy = r.top + r.height / 2;
          b.scrollIntoView({ block: 'center' });
          const s = b.getBoundingClientRect();
          const [x, y] = [s.left + s.width / 2, s.top + s.height / 2];
          // The hit area: the ::after is at least 24 x 24 CSS px, and the box answers taps that far out on each axis
          // (10 px: fields of the test document sit 24 px apart, centre to centre, on a phone).
          const after = getComputedStyle(b, '::after');
          const hits =
            parseFloat(after.width) >= 24 &&
            parseFloat(after.height) >= 24 &&
            [
              [x - 10, y],
              [x + 10, y],
              [x, y - 10],
              [x, y + 10],
            ].every(([px, py]) => document.elementFromPoint(px!, py!)?.closest('.field-box') === b);
          return { id: (b as HTMLElement).dataset.fieldId, hits, sameMark: Math.abs(mark.width - r.width) < 0.5 && Math.abs(mark.height - r.height) < 0.5, cx, cy };
        }),
      );
      for (const t of targets) expect(t, t.id).toMatchObject({ hits: true, sameMark: true });
      await page.evaluate(() => window.scrollTo(0, 0));
      // One tap: the first field.
      await page.locator('#next-field').click();
      expect(await page.locator('.field-box.current').getAttribute('data-field-id')).toBe('f1');
      expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.fieldId)).toBe('f1');
      await close();
    });
  }

  it('zooms with buttons and a two-finger pinch, redrawing the canvases; each page has its text for screen readers; pdf.js data from our origin', async () => {
    const c = await campaign();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const assets: { path: string; status: number }[] = [];
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (/^\/hosted\/pdfjs\/\d/.test(path)) assets.push({ path, status: r.status() });
    });
    await page.goto(url(c.token('employee')));
    await ceremonyReady(page);
    expect(await page.locator('.page-text').allTextContents()).toEqual(['Page 1', 'Page 2']);
    expect(await page.locator('.page canvas').first().getAttribute('aria-hidden')).toBe('true');
    expect(assets.every((a) => a.status === 200), JSON.stringify(assets)).toBe(true);

    const width = () => page.locator('.page').first().evaluate((p) => p.getBoundingClientRect().width);
    const canvasWidth = () => page.locator('.page canvas').first().evaluate((c) => (c as HTMLCanvasElement).width);
    const before = { page: await width(), canvas: await canvasWidth() };
    const redrawn = () => page.evaluate(() => new Promise<void>((resolve) => document.addEventListener('sign:redrawn', () => resolve(), { once: true })));
    let done = redrawn();
    await page.locator('#zoom-in').click();
    await done;
    expect(await page.locator('#zoom-level').textContent()).toBe('125%');
    expect(await width()).toBeCloseTo(before.page * 1.25, 0);
    expect(await canvasWidth()).toBeGreaterThan(before.canvas);
    // The page itself does not scroll sideways: the viewer does.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    done = redrawn();
    await page.locator('#zoom-fit').click();
    await done;
    expect(await width()).toBeCloseTo(before.page, 0);

    // Two fingers moving apart on the document.
    const box = (await page.locator('#viewer').boundingBox())!;
    const cdp = await context.newCDPSession(page);
    const y = box.y + 200;
    const fingers = (d: number) => [
      { x: box.x + box.width / 2 - d, y, id: 1 },
      { x: box.x + box.width / 2 + d, y, id: 2 },
    ];
    done = redrawn();
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(40) });
    for (let d = 50; d <= 100; d += 10) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(d) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await done;
    const zoomed = Number((await page.locator('#zoom-level').textContent())!.replace('%', ''));
    expect(zoomed).toBeGreaterThan(150);
    await context.close();

    // The data files: served by name with the package's version, immutable; anything else 404.
    const base = `http://127.0.0.1:${server.port}`;
    const data = JSON.parse(/id="page-data">(.*?)<\/script>/s.exec(await (await fetch(url(c.token('employee')))).text())![1]!) as { assetBase: string };
    for (const file of ['standard_fonts/LiberationSans-Regular.ttf', 'cmaps/78-H.bcmap', 'wasm/openjpeg.wasm']) {
      const res = await fetch(`${base}${data.assetBase}/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('cache-control')).toContain('immutable');
    }
    expect((await fetch(`${base}${data.assetBase}/wasm/openjpeg.wasm`)).headers.get('content-type')).toBe('application/wasm');
    for (const path of ['/wasm/nothing.wasm', '/etc/passwd', '/standard_fonts/..%2Fpackage.json', '/cmaps/LICENSE']) expect((await fetch(`${base}${data.assetBase}${path}`)).status, path).toBe(404);
    expect((await fetch(`${base}/hosted/pdfjs/0.0.1/wasm/openjpeg.wasm`)).status).toBe(404);
  });

  it('a keyboard alone completes the signing, focus visible at every stop', async () => {
    const c = await campaign();
    const { page, errors, close } = await openHostedPage(browser, url(c.token('employee')));
    await ceremonyReady(page);
    await tabTo(page, '#next-field');
    expect(await focusVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.fieldId)).toBe('f1');
    expect(await focusVisible(page)).toBe(true);
    // The box leads to its control: Enter on the signature field goes to the signature panel.
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('signature-legend');
    await tabTo(page, '#signature-mode-draw');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('signature-mode-alt');
    await tabTo(page, '#typed-name');
    await page.keyboard.type('Eva Employee');
    await tabTo(page, '#text-0');
    expect(await focusVisible(page)).toBe(true);
    await page.keyboard.type('Berlin office');
    await tabTo(page, '#consent');
    expect(await focusVisible(page)).toBe(true);
    await page.keyboard.press('Space');
    await tabTo(page, '#finish');
    expect(await focusVisible(page)).toBe(true);
    const [res] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `${SIGN_BASE}/${c.token('employee')}`), page.keyboard.press('Enter')]);
    expect(res.status()).toBe(200);
    await page.locator('#done').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('done-title');
    expect(res.request().postDataJSON()).toEqual({ consent: true, typedName: 'Eva Employee', fieldValues: { f4: 'Berlin office' } });
    expect(errors).toEqual([]);
    await close();
  });
});
