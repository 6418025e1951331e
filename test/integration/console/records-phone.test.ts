// The console's phone records in Chromium (issue 21 §2): the calls with status, duration and ended
// reason, keyset-paged with the API's cursor ("Older"), one call's page; the refusal page for a
// member without the PHONE grant; another tenant's call is a 404 page; axe at both sizes.
import { beforeAll, describe, expect, it } from 'vitest';
import { endOfCallReport } from '../../stand-ins/vapi/messages';
import { client } from '../../support/app';
import { expectAccessibleAt, rowCells, SIZES, useConsoleBrowser } from '../../support/console-records';
import { postWebhook, seedPhoneTenant, seedTrackedCall, usePhoneApp } from '../../support/phone';

describe('console records: phone calls', () => {
  const ctx = usePhoneApp();
  const web = useConsoleBrowser(ctx);
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;
  let ended: { id: string; providerCallId: string };
  let ringing: { id: string };
  let foreign: { id: string };

  beforeAll(async () => {
    t = await seedPhoneTenant(ctx, { connectKey: false });
    const other = await seedPhoneTenant(ctx, { connectKey: false });
    ended = await seedTrackedCall(ctx, t.id, 'IN_PROGRESS');
    const report = endOfCallReport({
      callId: ended.providerCallId,
      endedReason: 'customer-ended-call',
      summary: 'Customer confirmed the appointment.',
      startedAt: '2026-11-21T10:00:00.000Z',
      endedAt: '2026-11-21T10:03:05.000Z',
    });
    expect((await postWebhook(ctx, report)).status).toBe(200);
    await seedTrackedCall(ctx, t.id, 'QUEUED');
    ringing = await seedTrackedCall(ctx, t.id, 'RINGING');
    foreign = await seedTrackedCall(ctx, other.id, 'ENDED');
  });

  const calls = () => `/console/${t.id}/phone`;

  it('lists the calls newest first with status, duration and ended reason', async () => {
    const { page, status } = await web.open('reader', calls());
    expect(status).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Phone calls' }).waitFor();
    expect(await rowCells(page, `Call ${ended.id.slice(0, 8)}`)).toEqual([
      `Call ${ended.id.slice(0, 8)}`,
      'OUTBOUND',
      'ENDED',
      '3 min 5 s',
      'customer-ended-call',
      expect.stringMatching(/UTC$/),
    ]);
    const first = page.locator('tbody tr').first();
    expect(await first.innerText()).toContain(`Call ${ringing.id.slice(0, 8)}`);
    expect(await page.locator('tbody tr').count()).toBe(3);
    expect(await page.getByRole('link', { name: 'Older' }).count()).toBe(0);
  });

  it('pages like the API: "Older" carries its nextCursor and shows the rest', async () => {
    const api = await client(ctx).get('/api/phone-calls?limit=2', t.reader);
    expect(api.status, api.text).toBe(200);
    const { page } = await web.open('reader', `${calls()}?limit=2`);
    await page.locator('tbody tr').first().waitFor();
    expect(await page.locator('tbody tr').count()).toBe(2);
    const older = page.getByRole('link', { name: 'Older' });
    expect(new URL((await older.getAttribute('href'))!, web.base()).searchParams.get('cursor')).toBe(api.json.nextCursor);
    await Promise.all([page.waitForURL(/cursor=/), older.click()]);
    await page.locator('tbody tr').first().waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody').innerText()).toContain(`Call ${ended.id.slice(0, 8)}`);
    expect(await page.getByRole('link', { name: 'Older' }).count()).toBe(0);
  });

  it("a call's page shows its facts and summary", async () => {
    const { page, status } = await web.open('reader', calls());
    expect(status).toBe(200);
    await Promise.all([page.waitForURL(new RegExp(`/phone/${ended.id}$`)), page.getByRole('link', { name: `Call ${ended.id.slice(0, 8)}` }).click()]);
    const facts = await page.locator('dl.facts').innerText();
    expect(facts).toContain('customer-ended-call');
    expect(facts).toContain('3 min 5 s');
    expect(await page.locator('main').innerText()).toContain('Customer confirmed the appointment.');
  });

  it.each([
    ['the calls', () => calls()],
    ['a call', () => `${calls()}/${ended.id}`],
  ])('a member without the PHONE grant gets the refusal page for %s, and no call', async (_what, path) => {
    const { page, status } = await web.open('nobody', path());
    expect(status).toBe(403);
    const text = await page.locator('main').innerText();
    expect(text).toContain("You don't have access to this page");
    expect(text).toContain('You hold no grant on Phone');
    expect(text).not.toContain(ended.id.slice(0, 8));
    expect(text).not.toContain('customer-ended-call');
    expect(await page.locator('tbody tr').count()).toBe(0);
  });

  it.each([
    ["another tenant's call", () => foreign.id],
    ['an id that names no call', () => 'not-a-call'],
  ])('%s is a 404 page', async (_what, id) => {
    const { page, status } = await web.open('reader', `${calls()}/${id()}`);
    expect(status).toBe(404);
    expect(await page.getByRole('heading', { level: 2 }).first().innerText()).toBe('The phone call was not found');
    expect(await page.locator('dl.facts').count()).toBe(0);
  });

  it('a malformed cursor is a 400 page, not a 500', async () => {
    const { page, status } = await web.open('reader', `${calls()}?cursor=nonsense`);
    expect(status).toBe(400);
    expect(await page.locator('main').innerText()).toContain('This address is not valid');
  });

  it.each(SIZES)('axe: the calls page has no serious or critical violation at %s', async (_size, viewport) => {
    await expectAccessibleAt(web.open, 'reader', calls(), viewport, 'records-phone-calls');
  });

  it.each(SIZES)("axe: a call's page has no serious or critical violation at %s", async (_size, viewport) => {
    await expectAccessibleAt(web.open, 'reader', `${calls()}/${ended.id}`, viewport, 'records-phone-call');
  });
});
