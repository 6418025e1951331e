// The hosted signing page in Chromium against the real app served over HTTP: headers and 404s
// (unknown, cancelled, not yet armed), the pages rendered by pdf.js, stepping through the
// recipient's fields, a drawn signature arriving as a PNG in the document store, the typed path,
// consent, the API's refusals (409 from a second tab, shown as already signed; 400 for a typed
// name the page cannot vet; 404 once the campaign is cancelled), a reload after signing, and a
// document pdf.js cannot render. The code step, the phone screen and accessibility are in
// sign-page-access.test.ts. Every state comes from a real campaign; no workflow runs (the buyer is
// the first signer, the seller stays not armed), which is all these states need.
import { sql } from 'drizzle-orm';
import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CAMPAIGNS, SIGN_BASE } from '../../support/ceremony';
import { expectProblem } from '../../support/fixtures';
import { drawOn } from '../../support/sign-browser';
import { BUYER_FIELDS, PNG_MAGIC, useSignPageWorld } from '../../support/sign-page-world';

describe('hosted signing page', () => {
  const { ctx, api, base, editor, campaign, openPage, ceremonyReady, finishAndCapture, storedSignature, typeAndConsent } = useSignPageWorld();

  it('answers the page with the hosted pages headers, the script and worker by hash', async () => {
    const { buyer } = await campaign();
    const res = await fetch(`${base()}/sign/${buyer}`);
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
    const again = (await fetch(`${base()}/sign/${buyer}`)).headers.get('content-security-policy');
    expect(again).not.toContain(nonce);

    const data = JSON.parse(/<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(html)![1]!) as { apiUrl: string; workerSrc: string; codeFirst: boolean };
    expect(data.apiUrl).toBe(`${SIGN_BASE}/${buyer}`);
    expect(data.codeFirst).toBe(false);
    const script = /src="(\/hosted\/sign\.[0-9a-f]{16}\.js)"/.exec(html)![1]!;
    const scriptRes = await fetch(base() + script);
    expect(scriptRes.status).toBe(200);
    expect(scriptRes.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetch(base() + script.replace(/\.[0-9a-f]{16}\./, '.0000000000000000.'))).status).toBe(404);
    expect(data.workerSrc).toMatch(/^\/hosted\/pdfjs\/worker\.[0-9a-f]{16}\.mjs$/);
    const workerRes = await fetch(base() + data.workerSrc);
    expect(workerRes.status).toBe(200);
    expect(workerRes.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${base()}/hosted/pdfjs/worker.0000000000000000.mjs`)).status).toBe(404);

  });

  it('answers 404, page and API alike, for unknown, malformed, cancelled and not yet armed tokens', async () => {
    const open = await campaign();
    const cancelled = await campaign();
    expect((await api.post(`${CAMPAIGNS}/${cancelled.id}/cancel`, editor())).status).toBe(200);
    for (const token of ['tokUnknown_0123456789abc', 'bad%21token', 'x'.repeat(101), cancelled.buyer, open.seller]) {
      const notFound = await fetch(`${base()}/sign/${token}`);
      expect(notFound.status, token).toBe(404);
      expect(notFound.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await notFound.text()).toContain('This signing link is not available');
    }
    for (const token of ['tokUnknown_0123456789abc', cancelled.buyer, open.seller]) expectProblem(await api.get(`${SIGN_BASE}/${token}`, null), 404, 'signing-link-not-found');
    const { page, status } = await openPage(open.seller);
    expect(status).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('This signing link is not available');
  });

  it("renders the pages, highlights only this recipient's fields and steps through them", async () => {
    const { page, errors } = await openPage((await campaign()).buyer);
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
    expect(await page.locator('#signer').textContent()).toBe('Signing as: Ada Lovelace (Buyer)');
    expect(await page.locator('#routing').textContent()).toContain('step 1 of 2');
    expect(await page.locator('#variables').textContent()).toContain('Hauptstraße 1 <b>not bold</b>');
    expect(await page.locator('#variables b').count()).toBe(0);
    // Variables by their labels, not their keys.
    expect(await page.locator('#variables dt').allTextContents()).toEqual(['Price', 'Property']);

    // Ordered by page, then top to bottom: text (y 200), signature (600), date (610); page 2: signature, name, initials.
    const order = ['f-text', 'f-sig-1', 'f-date', 'f-sig-2', 'f-name', 'f-init'];
    // The page opens at its top; the first field is one tap away.
    expect(await page.locator('#step-status').textContent()).toMatch(/^6 fields to fill in/);
    expect(await page.locator('#next-field').textContent()).toBe('Go to the first field');
    expect(await page.locator('#step-status').getAttribute('aria-live')).toBe('polite');
    expect(await page.locator('#prev-field').isDisabled()).toBe(true);
    await page.locator('#next-field').click();
    expect(await page.locator('#step-status').textContent()).toMatch(/^Field 1 of 6: text, page 1/);
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
    const c = await campaign();
    const { page, errors } = await openPage(c.buyer);
    await ceremonyReady(page);
    const posts: Request[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(r));
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
    expect(posts).toEqual([]);

    await drawOn(page, '#signature-pad');
    await drawOn(page, '#initials-pad');
    await page.locator('#text-0').fill('Parking space 12');
    // The boxes preview what will be drawn.
    expect(await page.locator('[data-field-id="f-sig-1"] img').count()).toBe(1);
    expect(await page.locator('[data-field-id="f-text"]').textContent()).toBe('Parking space 12');
    await page.locator('#finish').click();
    expect(await summary.textContent()).toContain('Tick the box');
    expect(await summary.textContent()).not.toContain('Draw your signature');
    expect(posts).toEqual([]);

    await page.locator('#consent').check();
    const request = await finishAndCapture(page);
    await page.locator('#done').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('done-title');
    expect(await page.locator('#ceremony').isHidden()).toBe(true);
    expect(new URL(request.url()).pathname).toBe(`${SIGN_BASE}/${c.buyer}`);
    const body = request.postDataJSON() as Record<string, unknown>;
    expect(body.consent).toBe(true);
    expect(body.fieldValues).toEqual({ 'f-text': 'Parking space 12' });
    expect(body.typedName).toBeUndefined();
    for (const key of ['signaturePng', 'initialsPng']) {
      const base64 = body[key] as string;
      expect(base64, key).toMatch(/^[A-Za-z0-9+/]+=*$/);
      const bytes = Buffer.from(base64, 'base64');
      expect(bytes.subarray(0, 8).toString('hex')).toBe(PNG_MAGIC);
      expect(bytes.length).toBeLessThan(512 * 1024);
    }
    // The drawn signature arrived: the API stored the very PNG in the document store.
    expect((await storedSignature(c.id, 'buyer')).equals(Buffer.from(body.signaturePng as string, 'base64'))).toBe(true);
    expect(errors).toEqual([]);
  });

  it('signs with a typed name and initials from the name, without drawing; a second tab of the same link then gets the 409', async () => {
    const c = await campaign();
    const first = await openPage(c.buyer);
    const second = await openPage(c.buyer);
    await ceremonyReady(first.page);
    await ceremonyReady(second.page);
    const { page, errors } = first;
    await page.getByLabel('Type', { exact: true }).check();
    expect(await page.locator('#signature-pad').isHidden()).toBe(true);
    await page.locator('#typed-name').fill('  Ada Lovelace ');
    await page.getByLabel('From my name').check();
    expect(await page.locator('[data-field-id="f-sig-1"]').textContent()).toBe('Ada Lovelace');
    await page.getByLabel(/I agree to sign this document electronically/).check();
    const [request] = await Promise.all([page.waitForRequest((r) => r.method() === 'POST'), page.getByRole('button', { name: 'Finish and sign' }).click()]);
    await page.locator('#done').waitFor();
    expect(request.postDataJSON()).toEqual({ consent: true, typedName: 'Ada Lovelace' });
    const [row] = (await ctx.db.db.execute(
      sql`select status, signature_document_id from signature_recipients where instance_id = ${c.id} and signer_id = 'buyer'`,
    )) as unknown as { status: string; signature_document_id: string | null }[];
    expect(row).toEqual({ status: 'R_SIGNED', signature_document_id: null });
    expect(errors).toEqual([]);

    // The other tab, opened before, finishes too: the API's 409 is not an error to fix but the signature already given.
    await typeAndConsent(second.page);
    await second.page.locator('#finish').click();
    await second.page.locator('#done').waitFor();
    expect(await second.page.locator('#done-text').textContent()).toContain('You have signed. The completed document will be sent when everyone has signed.');
    expect(await second.page.evaluate(() => document.activeElement?.id)).toBe('done-title');
    expect(await second.page.locator('#ceremony').isHidden()).toBe(true);

    // Opened again, the link says so (server-rendered) instead of a second ceremony.
    const reload = await first.page.reload();
    expect(reload!.status()).toBe(200);
    expect(await first.page.locator('h1').textContent()).toBe('You have signed');
    expect(await first.page.locator('main').textContent()).toContain('The completed document will be sent when everyone has signed.');
    expect(await first.page.locator('.field-box').count()).toBe(0);
  });

  it('says the document cannot be displayed, and offers no ceremony, when pdf.js cannot render it', async () => {
    const { page, errors } = await openPage((await campaign()).buyer);
    await ceremonyReady(page);
    // The session as the API gave it, but with bytes no PDF reader opens.
    await page.route(`**${SIGN_BASE}/**`, async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const res = await route.fetch();
      route.fulfill({ response: res, json: { ...(await res.json()), pdfBase64: Buffer.from('%PDF-1.7 but nothing more').toString('base64') } });
    });
    await page.reload();
    // Waits on the state itself (Playwright's locator wait), not on expect.poll's one-second default,
    // which a loaded machine outran while pdf.js was still failing.
    await page.locator('#loading', { hasText: 'could not be displayed' }).waitFor();
    expect(await page.locator('#loading').isVisible()).toBe(true);
    expect(await page.locator('#ceremony').isHidden()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('loading');
    expect(errors.filter((e) => !/Invalid PDF|PDF/.test(e))).toEqual([]);
  });

  it("shows the API's 400 with its detail and errors: a typed name with a tab pasted into it, which the page does not vet", async () => {
    // The page's own checks prevent every other 400 of the API (a missing mark or consent, a PNG that is
    // no PNG, values over the inputs' maxlength); a control character in the typed name passes the input.
    const { page } = await openPage((await campaign()).buyer);
    await ceremonyReady(page);
    await typeAndConsent(page, 'Ada\tLovelace');
    await page.locator('#finish').click();
    const summary = page.locator('#error-summary');
    await page.locator('#error-summary', { hasText: 'typedName' }).waitFor();
    expect(await summary.textContent()).toContain('must not contain control characters');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('error-summary');
    expect(await page.locator('#done').isHidden()).toBe(true);
  });

  it('shows the not-available state when the API answers 404: the campaign was cancelled while the page was open', async () => {
    const c = await campaign();
    const { page, status } = await openPage(c.buyer);
    expect(status).toBe(200);
    await ceremonyReady(page);
    expect((await api.post(`${CAMPAIGNS}/${c.id}/cancel`, editor())).status).toBe(200);
    await typeAndConsent(page);
    await page.locator('#finish').click();
    await page.locator('#unavailable').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('unavailable-title');
    expect(await page.locator('#ceremony').isHidden()).toBe(true);
  });
});
