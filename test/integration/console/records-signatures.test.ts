// The console's signature records in Chromium (issue 21 §2): campaigns with status and recipients'
// progress, a campaign's recipients; "Re-seal" of a campaign whose seal FAILED (the timestamp
// authority refusing, as in production) through the page's form, then the sealed PDF downloaded by
// the browser; a stale re-seal is refused beside the campaign; the refusal page without the
// SIGNATURES grant; another tenant's campaign is a 404 page; axe at both sizes. The real
// signatureCeremony runs on Temporal, started by the outbox dispatcher.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Who } from '../../support/app';
import { CAMPAIGNS, eventually, openCampaignWorld, publishedDefinition, seedSignaturesTenant, SIGN_BASE, useCeremonyApp, type CeremonyWorld } from '../../support/ceremony';
import { expectAccessibleAt, rowCells, SIZES, useConsoleBrowser } from '../../support/console-records';
import { newAddress } from '../../support/outbound';
import { makePng } from '../../support/png';

describe('console records: signatures', () => {
  const ctx = useCeremonyApp();
  const api = client(ctx);
  const web = useConsoleBrowser(ctx);
  let world: CeremonyWorld;
  let t: Awaited<ReturnType<typeof seedSignaturesTenant>>;
  let editor: Who;
  let definitionId: string;
  let failed: string;
  let pending: string;
  let foreign: string;

  const start = async (who: Who, definition: string) => {
    const r = await api.post(CAMPAIGNS, who, {
      definitionId: definition,
      recipients: [
        { signerId: 'employee', name: 'Eva Employee', email: newAddress('emp') },
        { signerId: 'manager', name: 'Mara Manager', email: newAddress('mgr') },
      ],
      variables: { salary: '1' },
    });
    expect(r.status, r.text).toBe(201);
    const token = (signerId: string) => r.json.recipients.find((x: { signerId: string }) => x.signerId === signerId).token as string;
    return { id: r.json.id as string, token };
  };
  const detail = async (id: string) => (await api.get(`${CAMPAIGNS}/${id}`, editor)).json;
  const sign = async (token: string) => {
    const r = await api.post(`${SIGN_BASE}/${token}`, null, { signaturePng: makePng().toString('base64'), consent: true });
    expect(r.status, r.text).toBe(200);
  };

  beforeAll(async () => {
    ({ world, t, editor, definitionId } = await openCampaignWorld(ctx));
    // A campaign whose seal FAILED: the timestamp authority answers 503 while both recipients sign.
    world.sealer.failing = true;
    try {
      const c = await start(editor, definitionId);
      await sign(c.token('employee'));
      await eventually(() => detail(c.id), (d) => d.recipients[1].status === 'R_PENDING');
      await sign(c.token('manager'));
      await eventually(() => detail(c.id), (d) => d.sealStatus === 'FAILED');
      failed = c.id;
    } finally {
      world.sealer.failing = false;
    }
    pending = (await start(editor, definitionId)).id;
    const other = await seedSignaturesTenant(ctx);
    foreign = (await start(other.as('editor'), await publishedDefinition(ctx, other.as('editor')))).id;
  }, 180_000);
  afterAll(async () => {
    await world?.stop();
  });

  const campaigns = () => `/console/${t.id}/signatures`;

  it('lists the campaigns with status, recipients’ progress and seal', async () => {
    const { page, status } = await web.open('reader', campaigns());
    expect(status).toBe(200);
    expect((await rowCells(page, `Campaign ${failed.slice(0, 8)}`)).slice(1, 4)).toEqual(['COMPLETED', '2 of 2 signed', 'FAILED (timestamp-unavailable)']);
    expect((await rowCells(page, `Campaign ${pending.slice(0, 8)}`)).slice(1, 4)).toEqual(['PENDING', '0 of 2 signed', 'Not sealed yet']);
    expect(await page.locator('main').innerText()).not.toContain(foreign.slice(0, 8));
  });

  it("a campaign's recipients, without tokens or names; a read grant sees no Re-seal button", async () => {
    const { page } = await web.open('reader', `${campaigns()}/${failed}`);
    expect(await rowCells(page, 'employee')).toEqual(['employee', '1', 'R_SIGNED', expect.any(String), expect.any(String), expect.stringMatching(/UTC$/)]);
    const text = await page.locator('main').innerText();
    expect(text).not.toContain('Eva Employee');
    expect(text).not.toContain('/sign/');
    expect(await page.getByRole('button', { name: 'Re-seal' }).count()).toBe(0);
    expect(text).toContain('Re-sealing needs a read-write grant on Signatures');
  });

  it.each(SIZES)("axe: a campaign's page (FAILED, with its Re-seal form) at %s", async (_size, viewport) => {
    await expectAccessibleAt(web.open, 'editor', `${campaigns()}/${failed}`, viewport, 'records-signature-campaign');
  });

  it('Re-seal on a FAILED campaign seals it again; the sealed PDF downloads; a stale second Re-seal is refused beside the campaign', async () => {
    const first = await web.open('editor', `${campaigns()}/${failed}`);
    const stale = await web.open('editor', `${campaigns()}/${failed}`);
    await Promise.all([first.page.waitForURL(/resealed=1/), first.page.getByRole('button', { name: 'Re-seal' }).click()]);
    expect(await first.page.locator('p.notice-ok').innerText()).toContain('Re-seal requested');
    await eventually(() => detail(failed), (d) => d.sealStatus === 'SEALED');
    await first.page.reload();
    const [download] = await Promise.all([first.page.waitForEvent('download'), first.page.getByRole('link', { name: 'Download the sealed PDF' }).click()]);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(await first.page.getByRole('button', { name: 'Re-seal' }).count()).toBe(0);

    const [answer] = await Promise.all([stale.page.waitForResponse((r) => r.request().method() === 'POST'), stale.page.getByRole('button', { name: 'Re-seal' }).click()]);
    expect(answer.status()).toBe(409);
    await stale.page.locator('p.notice-error').waitFor();
    expect(await stale.page.locator('p.notice-error').innerText()).toContain('Not re-sealed: Only a COMPLETED campaign whose seal FAILED is re-sealed');
  });

  it('the sealed PDF of a campaign not sealed yet is a 409 page', async () => {
    const { page, status } = await web.open('reader', `${campaigns()}/${pending}/signed.pdf`);
    expect(status).toBe(409);
    expect(await page.locator('main').innerText()).toContain('The campaign is not sealed yet');
  });

  it.each([
    ['the campaigns', () => campaigns()],
    ['a campaign', () => `${campaigns()}/${failed}`],
    ['a sealed PDF', () => `${campaigns()}/${failed}/signed.pdf`],
  ])('a member without the SIGNATURES grant gets the refusal page for %s, and no campaign', async (_what, path) => {
    const { page, status } = await web.open('outsider', path());
    expect(status).toBe(403);
    const text = await page.locator('main').innerText();
    expect(text).toContain('You hold no grant on Signatures');
    expect(text).not.toContain(failed.slice(0, 8));
  });

  it.each([
    ["another tenant's campaign", () => `${campaigns()}/${foreign}`],
    ["another tenant's sealed PDF", () => `${campaigns()}/${foreign}/signed.pdf`],
  ])('%s is a 404 page', async (_what, path) => {
    const { page, status } = await web.open('reader', path());
    expect(status).toBe(404);
    expect(await page.locator('main h2').first().innerText()).toBe('The campaign was not found');
  });

  it.each(SIZES)('axe: the campaigns page at %s', async (_size, viewport) => {
    await expectAccessibleAt(web.open, 'reader', campaigns(), viewport, 'records-signature-campaigns');
  });

});
