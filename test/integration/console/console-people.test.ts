// The console for people (issue 21 §2): axe reports no serious or critical violation on any page
// of the shell and the access section, at 1280×800 and at 390×844, in their empty, filled and
// refused states; a member requests access and cancels it with the keyboard alone. With
// CONSOLE_SCREENSHOTS=1 the visits write docs/console/*.png, the pictures docs/console.md shows.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, OPERATOR, useTestApp } from '../../support/app';
import { act, DESKTOP, expectAccessible, PHONE, screenshot, useConsoleWorld } from '../../support/console';
import { seedTenant } from '../../support/fixtures';

describe('console: people', () => {
  const ctx = useTestApp({ 'temporal.ui-url': 'http://localhost:8233' });
  const web = useConsoleWorld(ctx);
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedTenant>>;
  let invitationToken: string;

  beforeAll(async () => {
    t = await seedTenant(ctx, { members: ['bob', 'cyd'], subscribe: ['PHONE', 'SLA'], grants: [{ user: 'cyd', code: 'SLA', level: 'read' }] });
    // A second tenant of cyd's, so the switcher has somewhere to go.
    await seedTenant(ctx, { members: ['cyd'] });
    expect((await api.post('/api/access-requests', { ...t.as('cyd'), name: 'Cyd Requester' }, { capabilityCode: 'PHONE', requestedLevel: 'read', note: 'Needed for the hotline' })).status).toBe(201);
    expect((await api.post(`/api/tenants/${t.id}/candidate-groups`, t.asOwner, { name: 'claims-reviewers', description: 'Reviews incoming claims' })).status).toBe(201);
    expect((await api.put(`/api/tenants/${t.id}/candidate-groups/claims-reviewers/members/cyd`, t.asOwner)).status).toBe(204);
    expect((await api.post(`/api/tenants/${t.id}/invitations`, t.asOwner, { role: 'member', email: 'new.colleague@example.org' })).status).toBe(201);
    invitationToken = (await api.post(`/api/tenants/${t.id}/invitations`, t.asOwner, { role: 'tenant-admin' })).json.token;
  });

  type Viewport = typeof DESKTOP;
  const OWNER = () => t.owner;
  /** Every page a person can reach in the shell and the access section: its picture's name, who looks, where. */
  const PAGES: [string, () => string, () => string][] = [
    ['manage-my-access', OWNER, () => `/console/${t.id}/access/my-access`],
    ['manage-my-access-member', () => 'cyd', () => `/console/${t.id}/access/my-access`],
    ['approve-requests', OWNER, () => `/console/${t.id}/access/approve-requests`],
    ['members', OWNER, () => `/console/${t.id}/access/members`],
    ['member-grants', OWNER, () => `/console/${t.id}/access/members/cyd`],
    ['candidate-groups', OWNER, () => `/console/${t.id}/access/candidate-groups`],
    ['invitations', OWNER, () => `/console/${t.id}/access/invitations`],
    ['accept-invitation', () => 'newcomer', () => `/console/invitations/${invitationToken}`],
    ['no-tenant', () => 'newcomer', () => '/console'],
    ['workflows', () => OPERATOR, () => `/console/${t.id}/workflows`],
    ['catalog', () => OPERATOR, () => `/console/${t.id}/catalog`],
    ['not-found', OWNER, () => `/console/${t.id}/no-such-page`],
  ];

  /** Display names and addresses for the pictures (the directory takes them from the gateway's headers). */
  const NAMES: Record<string, { name: string; email: string }> = {
    cyd: { name: 'Cyd Requester', email: 'cyd@example.org' },
    [OPERATOR]: { name: 'Olu Operator', email: 'olu@example.org' },
  };

  async function visit(user: string, path: string, viewport: Viewport) {
    const known = user === t.owner ? { name: 'Ada Owner', email: 'ada@example.org' } : NAMES[user];
    const who = await web.person(user, { viewport, ...known });
    await who.open(path);
    await who.page.locator('h1').waitFor();
    return who;
  }

  const SIZES = [
    ['1280×800', DESKTOP],
    ['390×844', PHONE],
  ] as const;

  // One page at one size per test: an axe run is heavy on a loaded machine, so each stays small.
  it.each(PAGES.flatMap(([shot, user, path]) => SIZES.map(([size, viewport]) => [shot, size, viewport, user, path] as const)))(
    'has no serious or critical axe violation on %s at %s',
    async (shot, _size, viewport, user, path) => {
      const name = `${shot}${viewport === PHONE ? '-phone' : ''}`;
      const who = await visit(user(), path(), viewport);
      await expectAccessible(who.page, name);
      // Nothing wider than the screen: a narrow screen scrolls tables inside their own region only.
      expect(await who.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), name).toBe(true);
      await screenshot(who.page, name);
      await who.context.close();
    },
  );

  it.each(SIZES)('has no serious or critical axe violation after a refusal and with a created link at %s', async (_size, viewport) => {
    const suffix = viewport === PHONE ? '-phone' : '';
    const owner = await visit(t.owner, `/console/${t.id}/access/members`, viewport);
    const row = owner.page.locator(`[id="member-${t.owner}"]`);
    expect(await act(owner.page, row.getByRole('button', { name: /^Remove/ }))).toBe(409);
    await expectAccessible(owner.page, `last-owner${suffix}`);
    await screenshot(owner.page, `last-owner-refused${suffix}`);
    await owner.open(`/console/${t.id}/access/invitations`);
    expect(await act(owner.page, owner.page.getByRole('button', { name: 'Create invitation' }))).toBe(200);
    await owner.page.getByRole('button', { name: 'Copy link' }).waitFor();
    await expectAccessible(owner.page, `invitation-created${suffix}`);
    await screenshot(owner.page, `invitation-created${suffix}`);
    await owner.context.close();
  });

  it('has no serious or critical axe violation with the tenant switcher open', async () => {
    const cyd = await visit('cyd', `/console/${t.id}/access/my-access`, DESKTOP);
    await cyd.page.locator('.switcher summary').click();
    await cyd.page.getByRole('list', { name: 'Your tenants' }).waitFor();
    await expectAccessible(cyd.page, 'switcher-open');
    await screenshot(cyd.page, 'tenant-switcher');
    await cyd.context.close();
  });

  /** Tabs forward until the focused element is the one `matches` picks (at most 60 presses). */
  async function tabTo(page: Page, matches: (el: { tag: string; text: string; id: string }) => boolean) {
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      const el = await page.evaluate(() => {
        const a = document.activeElement as HTMLElement | null;
        return { tag: a?.tagName ?? '', text: (a?.innerText ?? '').trim(), id: a?.id ?? '' };
      });
      if (matches(el)) return;
    }
    throw new Error('the keyboard never reached the element');
  }

  const focused = (page: Page) =>
    page.evaluate(() => ({ className: (document.activeElement as HTMLElement).className, text: (document.activeElement as HTMLElement).innerText.trim() }));

  it('lets a member request access and cancel it with the keyboard alone', async () => {
    const bob = await visit('bob', `/console/${t.id}/access/my-access`, PHONE);
    const page = bob.page;
    await page.keyboard.press('Tab');
    expect((await focused(page)).text).toBe('Skip to main content');
    await page.keyboard.press('Enter');
    await tabTo(page, (el) => el.id === 'capabilityCode');
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('#capabilityCode').inputValue()).toBe('SLA');
    await tabTo(page, (el) => el.id === 'note');
    await page.keyboard.type('Keyboard only, please');
    await tabTo(page, (el) => el.text === 'Send request');
    await page.locator('#main').evaluate((main) => main.setAttribute('data-stale', ''));
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.keyboard.press('Enter')]);
    await page.locator('#main:not([data-stale])').waitFor();
    // The answer takes the focus, so the next Tab goes on from there.
    await page.waitForFunction(() => document.activeElement?.classList.contains('notice'));
    expect((await focused(page)).text).toMatch(/^Your request for .+ was sent to the owners\.$/);

    await tabTo(page, (el) => el.text.startsWith('Cancel request'));
    await page.locator('#main').evaluate((main) => main.setAttribute('data-stale', ''));
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.keyboard.press('Enter')]);
    await page.locator('#main:not([data-stale])').waitFor();
    await page.waitForFunction(() => document.activeElement?.classList.contains('notice'));
    expect((await focused(page)).text).toMatch(/^Your request for .+ is cancelled\.$/);
    expect((await api.get('/api/my-access-requests', t.as('bob'))).json.map((r: { status: string }) => r.status)).toEqual(['CANCELLED']);
    await bob.context.close();
  });
});
