// The hosted signing page in Chromium: a signer's own browser context with every console error,
// CSP violation and field box shown without a name collected, and a mouse-drawn stroke on a
// signature_pad canvas.
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

export async function openSigningPage(browser: Browser, url: string, options: BrowserContextOptions = {}) {
  const page = await (await browser.newContext(options)).newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // The browser's own favicon request is no error of the page.
  page.on('console', (m) => m.type() === 'error' && !m.location().url.endsWith('/favicon.ico') && errors.push(m.text()));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    // A field box is a button from the moment it is on the page, so it has a name from then on.
    new MutationObserver((records) => {
      for (const r of records)
        for (const n of r.addedNodes)
          if (n instanceof HTMLElement && n.matches('.field-box') && !n.getAttribute('aria-label')) console.error(`field box without a name: ${n.dataset.fieldId}`);
    }).observe(document, { childList: true, subtree: true });
  });
  const res = await page.goto(url);
  return { page, errors, status: res!.status() };
}

/** A wavy stroke across the canvas at `selector`, drawn with the mouse. */
export async function drawOn(page: Page, selector: string) {
  await page.locator(selector).scrollIntoViewIfNeeded();
  const box = (await page.locator(selector).boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height * 0.7);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 20 + i * 15, box.y + box.height * (0.7 - 0.4 * Math.sin(i / 2)), { steps: 2 });
  await page.mouse.up();
}

/**
 * Waits until the signing page has drawn every page and named every field box: the page marks its
 * pages `aria-busy` while it draws them, and a box exists from its own page's drawing on.
 */
export const ceremonyReady = (page: Page) => page.locator('#pages:not([aria-busy]) .field-box').first().waitFor();
