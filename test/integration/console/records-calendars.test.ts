// The console's calendars in Chromium (issue 21 §2): the tenant's calendars and process
// associations, and the SLA due-date calculator, an htmx form whose answer agrees with
// POST /api/sla/calculate (by calendar and budget, and by process key), refusals in words in the
// result, the same answer without script; the refusal page without a CALENDAR or SLA grant;
// another tenant's calendar is unknown here; axe at both sizes.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { createStandardCalendar, seedCalendarTenant } from '../../support/calendars';
import { screenshot } from '../../support/console';
import { expectAccessible, expectAccessibleAt, rowCells, SIZES, useConsoleBrowser } from '../../support/console-records';

describe('console records: calendars and the SLA calculator', () => {
  const ctx = useTestApp();
  const web = useConsoleBrowser(ctx);
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;

  beforeAll(async () => {
    t = await seedCalendarTenant(ctx);
    await createStandardCalendar(ctx, t.asOwner, 'STD');
    const association = await client(ctx).post('/api/process-calendars', t.asOwner, {
      processDefinitionKey: 'claims',
      calendarCode: 'STD',
      slaBusinessDays: 2,
      slaBusinessMinutes: 30,
    });
    expect(association.status, association.text).toBe(201);
    const other = await seedCalendarTenant(ctx);
    await createStandardCalendar(ctx, other.asOwner, 'THEIRS');
  });

  const calendars = () => `/console/${t.id}/calendars`;
  const apiDueDate = async (body: Record<string, unknown>) => {
    const r = await client(ctx).post('/api/sla/calculate', t.as('reader'), body);
    expect(r.status, r.text).toBe(200);
    return r.json as { dueDateTimeUtc: string; dueDateTimeLocal: string };
  };

  /** Fills the calculator and sends it through htmx; answers the result region's answer status. */
  async function calculate(page: Page, fields: { calendar?: string; process?: string; received: string; zone: string; days?: string; minutes?: string }) {
    await page.waitForFunction(() => 'htmx' in window);
    await page.getByLabel('Calendar code').fill(fields.calendar ?? '');
    await page.getByLabel('or process definition key').fill(fields.process ?? '');
    await page.getByLabel('Received at', { exact: true }).fill(fields.received);
    await page.getByLabel('Time zone', { exact: true }).fill(fields.zone);
    await page.getByLabel('Budget: business days').fill(fields.days ?? '0');
    await page.getByLabel('Budget: business minutes').fill(fields.minutes ?? '0');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/calendars/sla')),
      page.getByRole('button', { name: 'Calculate the due date' }).click(),
    ]);
    expect(answer.request().headers()['hx-request']).toBe('true');
    return answer.status();
  }

  it('lists the calendars and the process associations', async () => {
    const { page, status } = await web.open('reader', calendars());
    expect(status).toBe(200);
    expect(await rowCells(page, 'Calendar STD')).toEqual(['STD', 'Calendar STD', 'Yes', '480 min', expect.stringMatching(/UTC$/)]);
    expect(await rowCells(page, 'claims')).toEqual(['claims', 'STD', '2 business days, 30 min', 'Yes']);
    expect(await page.locator('main').innerText()).not.toContain('THEIRS');
  });

  it('the calculator (calendar and budget) swaps in the due date POST /api/sla/calculate answers', async () => {
    const expected = await apiDueDate({ calendarCode: 'STD', receivedDateTime: '2025-03-28T16:30', receivedTimezone: 'Europe/Berlin', sla: { businessDays: 1, businessMinutes: 60 } });
    const { page } = await web.open('reader', calendars());
    const url = page.url();
    expect(await calculate(page, { calendar: 'STD', received: '2025-03-28T16:30', zone: 'Europe/Berlin', days: '1', minutes: '60' })).toBe(200);
    const due = page.locator('#sla-result [data-field=dueDateTimeUtc]');
    await due.waitFor();
    expect(await due.innerText()).toBe(expected.dueDateTimeUtc);
    expect(await page.locator('#sla-result [data-field=dueDateTimeLocal]').innerText()).toBe(expected.dueDateTimeLocal);
    expect(page.url()).toBe(url);
    await expectAccessible(page);
    await screenshot(page, 'records-sla-calculator');
  });

  it("the calculator by process key uses the association's calendar and budget, as the API does", async () => {
    const expected = await apiDueDate({ processDefinitionKey: 'claims', receivedDateTime: '2025-04-07T08:00', receivedTimezone: 'Europe/Berlin' });
    const { page } = await web.open('reader', calendars());
    expect(await calculate(page, { process: 'claims', received: '2025-04-07T08:00', zone: 'Europe/Berlin' })).toBe(200);
    const due = page.locator('#sla-result [data-field=dueDateTimeUtc]');
    await due.waitFor();
    expect(await due.innerText()).toBe(expected.dueDateTimeUtc);
  });

  it("refusals are sentences in the result: another tenant's calendar is unknown here, and both or neither basis is asked for again", async () => {
    const { page } = await web.open('reader', calendars());
    expect(await calculate(page, { calendar: 'THEIRS', received: '2025-03-28T16:30', zone: 'Europe/Berlin', days: '1' })).toBe(404);
    const problem = page.locator('#sla-result p.notice-error');
    await expect.poll(() => problem.innerText()).toBe('No due date: Calendar was not found.');
    expect(await calculate(page, { calendar: 'STD', process: 'claims', received: '2025-03-28T16:30', zone: 'Europe/Berlin' })).toBe(400);
    await expect.poll(() => problem.innerText()).toBe('No due date: Give either a calendar code or a process definition key, not both.');
    expect(await calculate(page, { calendar: 'STD', received: '2025-03-28T16:30', zone: 'Mars/Olympus' })).toBe(400);
    await expect.poll(() => problem.innerText()).toContain('IANA zone name');
  });

  it('without script the form posts and the page comes back with the due date', async () => {
    const expected = await apiDueDate({ calendarCode: 'STD', receivedDateTime: '2025-03-28T16:30', receivedTimezone: 'UTC', sla: { businessDays: 0, businessMinutes: 90 } });
    const { page } = await web.open('reader', calendars(), undefined, { javaScriptEnabled: false });
    await page.getByLabel('Calendar code').fill('STD');
    await page.getByLabel('Received at', { exact: true }).fill('2025-03-28T16:30');
    await page.getByLabel('Budget: business minutes').fill('90');
    const [answer] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Calculate the due date' }).click()]);
    expect(answer!.status()).toBe(200);
    expect(await page.locator('#sla-result [data-field=dueDateTimeUtc]').innerText()).toBe(expected.dueDateTimeUtc);
    expect(await page.getByLabel('Calendar code').inputValue()).toBe('STD');
  });

  it('a member without a CALENDAR or SLA grant gets the refusal page and no calendar', async () => {
    const { page, status } = await web.open('outsider', calendars());
    expect(status).toBe(403);
    const text = await page.locator('main').innerText();
    expect(text).toContain('You hold no grant on Calendars');
    expect(text).not.toContain('STD');
    expect(await page.locator('form[action$="/calendars/sla"]').count()).toBe(0);
  });

  it.each(SIZES)('axe: the calendars page at %s', async (_size, viewport) => {
    await expectAccessibleAt(web.open, 'reader', calendars(), viewport, 'records-calendars');
  });
});
