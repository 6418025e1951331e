// The hosted signing page in Chromium against the real app served over HTTP: headers and 404s
// (unknown, cancelled, not yet armed), the pages rendered by pdf.js, stepping through the
// recipient's fields, a drawn signature arriving as a PNG in the document store, the typed path,
// consent, the API's refusals (409 from a second tab, 400 for a typed name the page cannot vet,
// 404 once the campaign is cancelled), the e-mail code step with the code from the real mail
// catcher, a phone-sized screen with touch drawing, and basic accessibility rules. Every state
// comes from a real campaign; no workflow runs (the buyer is the first signer, the seller stays
// not armed), which is all these states need.
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { sql } from 'drizzle-orm';
import type { Browser, BrowserContextOptions, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../api/server';
import { physicalKey } from '../../../domain/documents/storage-key';
import { client, type Who } from '../../support/app';
import { launchChromium } from '../../support/browser';
import { CAMPAIGNS, publishedDefinition, seedSignaturesTenant, SIGN_BASE, useCeremonyApp } from '../../support/ceremony';
import { documentRow } from '../../support/documents';
import { expectProblem } from '../../support/fixtures';
import { codeIn, waitForMail } from '../../support/mail';
import { newAddress } from '../../support/outbound';
import { drawOn, openSigningPage } from '../../support/sign-browser';

/** The buyer signs first (six fields over two pages), the seller second; the seller's field is never shown to the buyer. */
const field = (id: string, signerId: string, type: string, page: number, [x, y, w, h]: number[]) => ({ id, signerId, type, page, x, y, w, h });
const FIELDS = [
  field('f-sig-1', 'buyer', 'SIGNATURE', 1, [72, 600, 200, 50]),
  field('f-date', 'buyer', 'DATE', 1, [320, 610, 120, 30]),
  field('f-text', 'buyer', 'TEXT', 1, [72, 200, 250, 28]),
  field('f-seller', 'seller', 'SIGNATURE', 1, [320, 680, 200, 50]),
  field('f-init', 'buyer', 'INITIALS', 2, [480, 720, 60, 36]),
  field('f-name', 'buyer', 'NAME', 2, [72, 660, 200, 28]),
  field('f-sig-2', 'buyer', 'SIGNATURE', 2, [72, 600, 200, 50]),
];
const BUYER_FIELDS = FIELDS.filter((f) => f.signerId === 'buyer');
const pageSchema = (buyerVerify = 'NONE') => ({
  signers: [
    { id: 'buyer', label: 'Buyer', order: 1, verify: buyerVerify },
    { id: 'seller', label: 'Seller', order: 2 },
  ],
  fields: FIELDS,
  variables: [
    { key: 'price', label: 'Price' },
    { key: 'property', label: 'Property' },
  ],
  routing: 'sequential',
});
const PNG_MAGIC = '89504e470d0a1a0a';

describe('hosted signing page', () => {
  const ctx = useCeremonyApp();
  const api = client(ctx);
  let server: RunningServer;
  let browser: Browser;
  let editor: Who;
  let definitionId: string;
  let otpDefinitionId: string;

  beforeAll(async () => {
    const t = await seedSignaturesTenant(ctx);
    editor = t.as('editor');
    [definitionId, otpDefinitionId] = [await publishedDefinition(ctx, editor, pageSchema()), await publishedDefinition(ctx, editor, pageSchema('EMAIL_OTP'))];
    server = await startServer(ctx.deps, 0, '127.0.0.1');
    browser = await launchChromium(ctx.settings);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const base = () => `http://127.0.0.1:${server.port}`;

  /** A fresh campaign: the buyer's link is armed, the seller's is not yet. */
  async function campaign(definition = definitionId) {
    const buyer = { signerId: 'buyer', name: 'Ada Lovelace', email: newAddress('buyer') };
    const r = await api.post(CAMPAIGNS, editor, {
      definitionId: definition,
      recipients: [buyer, { signerId: 'seller', name: 'Sam Seller', email: newAddress('seller') }],
      variables: { price: '250,000 EUR', property: 'Hauptstraße 1 <b>not bold</b>' },
    });
    expect(r.status, r.text).toBe(201);
    const token = (signerId: string) => r.json.recipients.find((x: { signerId: string }) => x.signerId === signerId).token as string;
    return { id: r.json.id as string, buyer: token('buyer'), seller: token('seller'), email: buyer.email };
  }

  const openPage = (token: string, options: BrowserContextOptions = {}) => openSigningPage(browser, `${base()}/sign/${token}`, options);
  const ceremonyReady = (page: Page) => page.locator('.field-box').first().waitFor();

  /** Clicks Finish and answers the signature request the browser sent. */
  async function finishAndCapture(page: Page): Promise<Request> {
    const [request] = await Promise.all([page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.startsWith(SIGN_BASE)), page.locator('#finish').click()]);
    return request;
  }

  /** The bytes of a recipient's stored signature PNG (the document store, as the seal will read it). */
  async function storedSignature(instanceId: string, signerId: string): Promise<Buffer> {
    const [row] = (await ctx.db.db.execute(
      sql`select signature_document_id as id from signature_recipients where instance_id = ${instanceId} and signer_id = ${signerId}`,
    )) as unknown as { id: string }[];
    const doc = (await documentRow(ctx, row!.id))!;
    expect(doc).toMatchObject({ capability: 'SIGNATURES', ownerEntityId: instanceId });
    const out = await ctx.deps.s3!.send(new GetObjectCommand({ Bucket: ctx.settings['s3.bucket'], Key: physicalKey(doc.tenantId, doc.storageKey), VersionId: doc.storageVersionId! }));
    return Buffer.from(await out.Body!.transformToByteArray());
  }

  /** Types the name, initials from it, consents. */
  async function typeAndConsent(page: Page, name = 'Ada Lovelace') {
    await page.getByLabel('Type', { exact: true }).check();
    await page.locator('#typed-name').fill(name);
    await page.getByLabel('From my name').check();
    await page.locator('#consent').check();
  }

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
    expect((await api.post(`${CAMPAIGNS}/${cancelled.id}/cancel`, editor)).status).toBe(200);
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
    expect(await page.locator('#signer').textContent()).toBe('Signing as: Buyer');
    expect(await page.locator('#routing').textContent()).toContain('step 1 of 2');
    expect(await page.locator('#variables').textContent()).toContain('Hauptstraße 1 <b>not bold</b>');
    expect(await page.locator('#variables b').count()).toBe(0);

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

    // The other tab, opened before, finishes too: the API's 409.
    await typeAndConsent(second.page);
    await second.page.locator('#finish').click();
    const summary = second.page.locator('#error-summary');
    await expect.poll(() => summary.textContent()).toContain('already signed');
    expect(await summary.textContent()).toContain('This recipient has already signed');
    expect(await second.page.evaluate(() => document.activeElement?.id)).toBe('error-summary');
    expect(await second.page.locator('#done').isHidden()).toBe(true);
  });

  it("shows the API's 400 with its detail and errors: a typed name with a tab pasted into it, which the page does not vet", async () => {
    // The page's own checks prevent every other 400 of the API (a missing mark or consent, a PNG that is
    // no PNG, values over the inputs' maxlength); a control character in the typed name passes the input.
    const { page } = await openPage((await campaign()).buyer);
    await ceremonyReady(page);
    await typeAndConsent(page, 'Ada\tLovelace');
    await page.locator('#finish').click();
    const summary = page.locator('#error-summary');
    await expect.poll(() => summary.textContent()).toContain('typedName');
    expect(await summary.textContent()).toContain('must not contain control characters');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('error-summary');
    expect(await page.locator('#done').isHidden()).toBe(true);
  });

  it('shows the not-available state when the API answers 404: the campaign was cancelled while the page was open', async () => {
    const c = await campaign();
    const { page, status } = await openPage(c.buyer);
    expect(status).toBe(200);
    await ceremonyReady(page);
    expect((await api.post(`${CAMPAIGNS}/${c.id}/cancel`, editor)).status).toBe(200);
    await typeAndConsent(page);
    await page.locator('#finish').click();
    await page.locator('#unavailable').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('unavailable-title');
    expect(await page.locator('#ceremony').isHidden()).toBe(true);
  });

  it('starts at the e-mail code step for an EMAIL_OTP signer, takes the code from the e-mail, then signs with the access token', async () => {
    const c = await campaign(otpDefinitionId);
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
    // The tab keeps the session: a reload opens the document without a new code.
    await page.reload();
    await ceremonyReady(page);
    expect(sessionAuth).toEqual([sessionAuth[0], sessionAuth[0]]);
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
