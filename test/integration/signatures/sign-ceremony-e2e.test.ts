// End to end in Chromium through the real app over HTTP (issue 13, "Real parts in tests"): a
// two-signer sequential ceremony on the hosted page, with the signatureCeremony process on the
// real Temporal server arming the second signer and sealing with the production sealer (the local
// RFC 3161 stand-in as authority). The employee draws with the mouse and fills the TEXT field on a
// desktop screen; the manager, whose link is refused until then, types the name on a phone-sized
// touch screen. The sealed PDF is checked by qpdf, pdfsig and OpenSSL, its certificate by pdftotext.
import { join } from 'node:path';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../api/server';
import { client, type Who } from '../../support/app';
import { launchChromium } from '../../support/browser';
import { CAMPAIGNS, eventually, openCampaignWorld, SIGN_BASE, useCeremonyApp, type CeremonyWorld } from '../../support/ceremony';
import { expectProblem } from '../../support/fixtures';
import { waitForMail } from '../../support/mail';
import { newAddress } from '../../support/outbound';
import { PNG_SIGNATURE } from '../../support/png';
import { checkSealed, expectValidSeal, pdfText } from '../../support/seal';
import { ceremonyReady, drawOn, openSigningPage } from '../../support/sign-browser';

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

describe('a sequential two-signer ceremony in Chromium, through the real API, ends SEALED', () => {
  const ctx = useCeremonyApp();
  const api = client(ctx);
  let world: CeremonyWorld;
  let server: RunningServer;
  let browser: Browser;
  let editor: Who;
  let definitionId: string;

  beforeAll(async () => {
    ({ world, editor, definitionId } = await openCampaignWorld(ctx));
    server = await startServer(ctx.deps, 0, '127.0.0.1');
    browser = await launchChromium(ctx.settings);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await world?.stop();
  });

  const pageUrl = (token: string) => `http://127.0.0.1:${server.port}/sign/${token}`;
  const detail = async (id: string) => (await api.get(`${CAMPAIGNS}/${id}`, editor)).json;

  const openAs = (token: string, options: BrowserContextOptions = {}) => openSigningPage(browser, pageUrl(token), options);

  /** The not-yet-armed link: the page answers 404 and so does the API. */
  async function expectRefused(token: string) {
    const { page, status } = await openAs(token);
    expect(status).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('This signing link is not available');
    await page.context().close();
    expectProblem(await api.get(`${SIGN_BASE}/${token}`, null), 404, 'signing-link-not-found');
  }

  it('employee draws and fills TEXT, the manager link opens only then, the manager types on a phone; the PDF is sealed and valid', async () => {
    const people = [
      { signerId: 'employee', name: 'Eva Employee', email: newAddress('emp') },
      { signerId: 'manager', name: 'Mara Manager', email: newAddress('mgr') },
    ];
    const created = await api.post(CAMPAIGNS, editor, { definitionId, recipients: people, variables: { salary: '52,000 EUR' } });
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as string;
    const token = (signerId: string) => created.json.recipients.find((r: { signerId: string }) => r.signerId === signerId).token as string;

    await expectRefused(token('manager'));

    // The employee: the link of the e-mail, the pages, draw, TEXT, consent, finish.
    const [invitation] = await waitForMail(people[0]!.email);
    expect(invitation!.text).toContain(`/sign/${token('employee')}`);
    const employee = await openAs(token('employee'));
    expect(employee.status).toBe(200);
    await ceremonyReady(employee.page);
    expect(await employee.page.locator('#signer').textContent()).toBe('Signing as: Eva Employee (Employee)');
    expect(await employee.page.locator('#routing').textContent()).toContain('step 1 of 2');
    expect(await employee.page.locator('#variables').textContent()).toContain('52,000 EUR');
    expect(await employee.page.locator('.field-box').evaluateAll((boxes) => boxes.map((b) => (b as HTMLElement).dataset.fieldId))).toEqual(['f1', 'f2', 'f3', 'f4']);
    // Opened, not finished: the manager is still not armed.
    await expectRefused(token('manager'));
    await drawOn(employee.page, '#signature-pad');
    await employee.page.getByLabel('Text 1 (page 1)').fill('Berlin office');
    await employee.page.getByLabel(/I agree to sign this document electronically/).check();
    await employee.page.getByRole('button', { name: 'Finish and sign' }).click();
    await employee.page.locator('#done').waitFor();
    expect(employee.errors).toEqual([]);

    // The workflow arms the manager: the link opens (and is mailed) once it has.
    await eventually(() => fetch(pageUrl(token('manager'))).then((r) => r.status), (s) => s === 200);
    const [second] = await waitForMail(people[1]!.email);
    expect(second!.text).toContain(`/sign/${token('manager')}`);

    const manager = await openAs(token('manager'), PHONE);
    expect(manager.status).toBe(200);
    await ceremonyReady(manager.page);
    expect(await manager.page.locator('#routing').textContent()).toContain('step 2 of 2');
    expect(await manager.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await manager.page.getByLabel('Type', { exact: true }).check();
    await manager.page.locator('#typed-name').fill('Mara Manager');
    await manager.page.getByLabel('From my name').check();
    await manager.page.getByLabel(/I agree to sign this document electronically/).check();
    await manager.page.getByRole('button', { name: 'Finish and sign' }).click();
    await manager.page.locator('#done').waitFor();
    expect(manager.errors).toEqual([]);
    // The campaign is complete: the session is closed, the employee's link says they signed (or offers the copy once sealed).
    expectProblem(await api.get(`${SIGN_BASE}/${token('employee')}`, null), 404, 'signing-link-not-found');
    const after = await openAs(token('employee'));
    expect(after.status).toBe(200);
    expect(await after.page.locator('h1').textContent()).toMatch(/^(You have signed|Everyone has signed)$/);
    await after.page.context().close();

    const sealed = await eventually(() => detail(id), (d) => d.sealStatus === 'SEALED');
    expect(sealed.status).toBe('COMPLETED');
    expect(sealed.events.map((e: { action: string }) => e.action)).toEqual(['created', 'opened', 'consented', 'signed', 'opened', 'consented', 'signed', 'completed', 'sealed']);

    // What the browser sent reached the seal: the drawn PNG, the TEXT value, the typed name.
    const request = world.sealer.requests.find((r) => r.instanceId === id)!;
    const mark = (type: string, page: number) => request.marks.find((m) => m.type === type && m.page === page)!;
    expect(Buffer.from((mark('SIGNATURE', 1) as { png: Uint8Array }).png).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(mark('TEXT', 1)).toMatchObject({ text: 'Berlin office' });
    expect(mark('SIGNATURE', 2)).toMatchObject({ typedText: 'Mara Manager' });
    expect(mark('INITIALS', 2)).toMatchObject({ typedText: 'MM' });

    const pdf = await ctx.app.request(`${CAMPAIGNS}/${id}/signed.pdf`, { headers: { 'X-User-Id': editor.user, 'X-Tenant-Id': editor.tenant! } });
    expect(pdf.status).toBe(200);
    const dir = join(world.sealer.dir, id);
    expectValidSeal(await checkSealed(Buffer.from(await pdf.arrayBuffer()), dir, world.sealer.org, world.sealer.tsa));

    // The Certificate of Completion lists both signers and each one's events from the browser.
    const certificate = await pdfText(join(dir, 'sealed.pdf'));
    expect(certificate).toContain('Certificate of Completion');
    for (const person of people) expect(certificate).toContain(`${person.name} <${person.email}>`);
    for (const signerId of ['employee', 'manager'])
      for (const action of ['opened', 'consented', 'signed']) expect(certificate).toMatch(new RegExp(`\\s${action}\\s+\\(${signerId}\\)`));
    expect(certificate).toContain('IP 127.0.0.1, IP risk loopback');
    expect(certificate).toMatch(/User agent: .*HeadlessChrome/);
  });
});
