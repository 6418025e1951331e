// The hosted signing page in Chromium against the real app served over HTTP, the signer's side of
// access: the e-mail code step with the code from the real mail catcher and the access token on
// every call, a phone-sized screen with touch drawing, and basic accessibility rules. Every state
// comes from a real campaign (test/support/sign-page-world.ts).
import { describe, expect, it } from 'vitest';
import { SIGN_BASE } from '../../support/ceremony';
import { codeIn, waitForMail } from '../../support/mail';
import { PNG_MAGIC, useSignPageWorld } from '../../support/sign-page-world';

describe('hosted signing page: code step, phone screen, accessibility', () => {
  const { base, campaign, openPage, ceremonyReady, finishAndCapture, storedSignature, typeAndConsent } = useSignPageWorld();

  it('starts at the e-mail code step for an EMAIL_OTP signer, takes the code from the e-mail, then signs with the access token', async () => {
    const c = await campaign('EMAIL_OTP');
    // The page knows from its own check that this signer verifies by e-mail (the API's session says only 404).
    expect(await (await fetch(`${base()}/sign/${c.buyer}`)).text()).toContain('"codeFirst":true');
    const { page, errors } = await openPage(c.buyer);
    const sessionAuth: (string | undefined)[] = [];
    const signAuth: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname !== `${SIGN_BASE}/${c.buyer}`) return;
      (r.method() === 'GET' ? sessionAuth : signAuth).push(r.headers().authorization);
    });
    await page.locator('#otp-step').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('send-code');
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await expect.poll(() => page.locator('#code-status').textContent()).toContain('a code is on its way');
    // No workflow runs here, so no invitation: the code mail, sent by the API itself, is the only one.
    const [mail, ...more] = await waitForMail(c.email);
    expect(more).toEqual([]);
    const code = codeIn(mail!);
    // Not six digits: the page says so without asking the API.
    const verifies: string[] = [];
    page.on('request', (r) => r.url().endsWith('/verify') && verifies.push(r.url()));
    await page.getByLabel('Code from the e-mail').fill('12ab');
    await page.getByRole('button', { name: 'Open the document' }).click();
    await expect.poll(() => page.locator('#code-error').textContent()).toContain('Enter the 6-digit code');
    expect(verifies).toEqual([]);
    await page.getByLabel('Code from the e-mail').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Open the document' }).click();
    await expect.poll(() => page.locator('#code-error').textContent()).toContain('That code did not open the document');
    expect(await page.locator('#code-error').textContent()).toContain('the code or access token is not valid');
    expect(await page.locator('#code').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Code from the e-mail').fill(code);
    await page.getByRole('button', { name: 'Open the document' }).click();
    await ceremonyReady(page);
    // No session read before the code: the first one carries the access token.
    expect(sessionAuth).toEqual([expect.stringMatching(/^Bearer .+/)]);
    await typeAndConsent(page);
    await page.locator('#finish').click();
    await page.locator('#done').waitFor();
    expect(signAuth).toEqual(sessionAuth);
    expect(await page.locator('#code').inputValue()).toBe('');
    // Opened again, the link says the signature is given (server-rendered: no session read, no code asked).
    await page.reload();
    expect(await page.locator('h1').textContent()).toBe('You have signed');
    expect(sessionAuth).toEqual([sessionAuth[0]]);
    // The refused code (the API's one 404) is the only failed load.
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    expect(errors).toHaveLength(1);
  });

  it('fits a 390x844 phone screen without horizontal scrolling and draws by touch', async () => {
    const c = await campaign();
    const { page, errors } = await openPage(c.buyer, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
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
    const request = await finishAndCapture(page);
    await page.locator('#done').waitFor();
    expect(Buffer.from(request.postDataJSON().signaturePng as string, 'base64').subarray(0, 8).toString('hex')).toBe(PNG_MAGIC);
    expect((await storedSignature(c.id, 'buyer')).subarray(0, 8).toString('hex')).toBe(PNG_MAGIC);
    expect(errors).toEqual([]);
  });

  it('passes basic accessibility rules: names for every control, unique ids, labels, language, one h1, no positive tabindex', async () => {
    const { page } = await openPage((await campaign()).buyer);
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
