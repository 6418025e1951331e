// The console's safety (issue 21 §2): the hosted pages' headers (CSP with a nonce per response,
// no inline handlers or styles, no-store), htmx and the console script from our own origin at
// hashed, immutable paths, the CSRF defence (a cross-site form post in Chromium, a missing or
// another user's token, a foreign Origin: all 403, nothing changed), tenant isolation (404 pages),
// the pages for no identity and no tenant, the tenant switcher, and the operator's pages.
import { beforeAll, describe, expect, it } from 'vitest';
import { client, OPERATOR, useTestApp } from '../../support/app';
import { serveHostPage } from '../../support/browser';
import { useConsoleWorld } from '../../support/console';
import { seedTenant } from '../../support/fixtures';

const UI = 'http://temporal-ui.example:8233';

describe('console: safety, isolation and the shell', () => {
  const ctx = useTestApp({ 'temporal.ui-url': UI, 'console.dev-sign-in': true });
  const web = useConsoleWorld(ctx);
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedTenant>>;
  let other: Awaited<ReturnType<typeof seedTenant>>;
  const members = () => `/console/${t.id}/access/members`;
  const get = (path: string, user: string | null, headers: Record<string, string> = {}) =>
    fetch(`${web.base()}${path}`, { headers: { ...(user ? { 'X-User-Id': user } : {}), ...headers }, redirect: 'manual' });
  const memberIds = async () => (await api.get(`/api/tenants/${t.id}/members`, t.asOwner)).json.map((m: { userId: string }) => m.userId);

  beforeAll(async () => {
    t = await seedTenant(ctx, { members: ['bob'], subscribe: ['PHONE'] });
    other = await seedTenant(ctx, { members: ['bob'] });
  });

  it("answers every page with the hosted pages' headers: a fresh nonce, no inline handler or style, no-store", async () => {
    const first = await get(`/console/${t.id}/access/my-access`, t.owner);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = first.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([A-Za-z0-9_-]+)'/.exec(csp)![1]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`style-src 'nonce-${nonce}'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await first.text();
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html.match(/<script [^>]*>/g)!.every((tag) => tag.includes(`nonce="${nonce}"`))).toBe(true);
    expect(JSON.parse(/<meta name="htmx-config" content="([^"]+)"/.exec(html)![1]!.replace(/&quot;/g, '"'))).toMatchObject({ allowEval: false, includeIndicatorStyles: false });
    const again = await get(`/console/${t.id}/access/my-access`, t.owner);
    expect(again.headers.get('content-security-policy')).not.toContain(nonce);
    for (const path of [members(), `/console/${t.id}/nope`, `/console/${other.id}/access/my-access`, '/console']) {
      const res = await get(path, t.owner);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('serves htmx and the console script from our own origin at hashed, immutable paths', async () => {
    const html = await (await get(`/console/${t.id}/access/my-access`, t.owner)).text();
    const scripts = [...html.matchAll(/<script [^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toEqual([expect.stringMatching(/^\/console\/assets\/htmx\.[0-9a-f]{16}\.js$/), expect.stringMatching(/^\/console\/assets\/console\.[0-9a-f]{16}\.js$/)]);
    for (const src of scripts) {
      const res = await get(src, null);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    expect(await (await get(scripts[0]!, null)).text()).toContain('htmx');
    expect((await get(scripts[0]!.replace(/\.[0-9a-f]{16}\./, '.0000000000000000.'), null)).status).toBe(404);
  });

  it('refuses a form posted from another site with 403 and changes nothing', async () => {
    const owner = await web.person(t.owner);
    await owner.open(members());
    const host = await serveHostPage();
    try {
      host.set(`<!doctype html><title>Elsewhere</title>
<form method="post" action="${web.base()}${members()}">
<input name="action" value="add"><input name="userId" value="mallory"><input name="role" value="tenant-admin"><input name="_csrf" value="guessed">
</form><script>document.forms[0].submit()</script>`);
      const [res] = await Promise.all([
        owner.page.waitForResponse((r) => r.request().method() === 'POST'),
        owner.page.goto(`http://localhost:${host.port}/`),
      ]);
      expect(res.status()).toBe(403);
      await owner.page.getByRole('heading', { level: 1, name: 'Form refused' }).waitFor();
    } finally {
      await host.close();
    }
    expect(await memberIds()).not.toContain('mallory');
    await owner.context.close();
  });

  it("refuses a POST without the form token, with another user's token, or from a foreign Origin", async () => {
    const owner = await web.person(t.owner);
    await owner.open(members());
    const token = await owner.page.locator('input[name=_csrf]').first().inputValue();
    const url = `${web.base()}${members()}`;
    const form = { action: 'add', userId: 'mallory', role: 'member' };
    const post = (extra: Record<string, string>, headers: Record<string, string> = {}) => owner.page.request.post(url, { form: { ...form, ...extra }, headers, maxRedirects: 0 });
    expect((await post({})).status()).toBe(403);
    expect((await post({ _csrf: 'x'.repeat(43) })).status()).toBe(403);
    // The owner's token names the owner: the same browser session speaking as someone else is refused.
    expect((await post({ _csrf: token }, { 'X-User-Id': 'bob' })).status()).toBe(403);
    expect((await post({ _csrf: token }, { Origin: 'https://evil.example' })).status()).toBe(403);
    expect((await post({ _csrf: token }, { 'Sec-Fetch-Site': 'same-site' })).status()).toBe(403);
    expect(await memberIds()).not.toContain('mallory');
    const allowed = await post({ _csrf: token }, { Origin: web.base() });
    expect(allowed.status()).toBe(200);
    expect(await memberIds()).toContain('mallory');
    await owner.context.close();
  });

  it("answers another tenant's pages, an unknown tenant and a malformed id with a 404 page", async () => {
    for (const path of [`/console/${other.id}/access/my-access`, `/console/${other.id}/access/members`, '/console/no-such-tenant/access/my-access', '/console/NOT_A_TENANT/access/my-access']) {
      const res = await get(path, t.owner);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toContain('This tenant does not exist, or you do not belong to it.');
    }
    const stranger = await get(`/console/${t.id}/access/members/nobody-here`, t.owner);
    expect(stranger.status).toBe(404);
    expect(await stranger.text()).toContain('This person is not a member of the tenant');
    expect((await get(`/console/${t.id}/no-such-page`, t.owner)).status).toBe(404);
  });

  it('says when nobody is signed in, and when the person belongs to no tenant yet', async () => {
    const anonymous = await get('/console', null);
    expect(anonymous.status).toBe(400);
    expect(anonymous.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await anonymous.text()).toContain('You are not signed in');
    const lonely = await get('/console', 'nobody-yet');
    expect(lonely.status).toBe(200);
    expect(await lonely.text()).toContain('You belong to no tenant yet');
  });

  it("offers the development gateway's sign-in and sign-out when npm start runs it", async () => {
    const owner = await web.person(t.owner);
    await owner.open(`/console/${t.id}/access/my-access`);
    const signOut = owner.page.getByRole('button', { name: 'Sign out' });
    expect(await signOut.locator('xpath=ancestor::form').getAttribute('action')).toBe('/dev/sign-out');
    await owner.context.close();
    const anonymous = await (await get('/console', null)).text();
    expect(anonymous).toContain('<a href="/dev/sign-in">Sign in</a>');
  });

  it("lists a member's own tenants in the switcher and lets them switch", async () => {
    const bob = await web.person('bob');
    expect(await bob.open('/console')).toBe(200);
    await bob.page.locator('.switcher summary').click();
    const tenants = bob.page.getByRole('list', { name: 'Your tenants' }).getByRole('link');
    expect((await tenants.allInnerTexts()).sort()).toEqual([`Tenant ${t.id} (member)`, `Tenant ${other.id} (member)`].sort());
    const target = new URL(bob.page.url()).pathname.includes(t.id) ? other : t;
    await Promise.all([bob.page.waitForURL((u) => u.pathname === `/console/${target.id}/access/my-access`), tenants.filter({ hasText: target.id }).click()]);
    await bob.context.close();
  });

  it("gives operators every tenant, the catalog and the tenant's workflows in the Temporal Web UI; others get a 404", async () => {
    const op = await web.person(OPERATOR);
    expect(await op.open(`/console/${t.id}/access/my-access`)).toBe(200);
    expect(await op.page.getByRole('navigation', { name: 'Access' }).getByRole('link').count()).toBe(5);
    const sections = await op.page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allInnerTexts();
    expect(sections).toEqual(['Access', 'Workflows', 'Capability catalog']);
    await op.page.getByRole('link', { name: 'Workflows' }).click();
    const link = op.page.getByRole('link', { name: /Open this tenant's workflows/ });
    expect(await link.getAttribute('href')).toBe(`${UI}/namespaces/default/workflows?query=${encodeURIComponent(`TenantId="${t.id}"`)}`);
    await op.page.getByRole('link', { name: 'Capability catalog' }).click();
    expect(await op.page.locator('tbody tr', { hasText: 'PHONE' }).innerText()).toContain('ACTIVE');
    await op.page.locator('.switcher summary').click();
    expect(await op.page.getByRole('list', { name: 'Your tenants' }).getByRole('link', { name: new RegExp(other.id) }).count()).toBe(1);
    for (const page of ['workflows', 'catalog']) expect((await get(`/console/${t.id}/${page}`, t.owner)).status, page).toBe(404);
    await op.context.close();
  });
});
