// The console's access section in Chromium against the real app (issue 21 §2): an owner's and a
// non-owner's journeys through the five sections with the redirect rule (also when ownership is
// lost between two clicks), a request made in one browser and approved in another, an invitation
// created, accepted in a second browser and revoked, the API's refusals beside their rows, and the
// last-owner guard. Every action is the JSON API's service, so the API sees what the console did.
import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { act, accessTabs, noticeIn, useConsoleWorld } from '../../support/console';
import { seedTenant } from '../../support/fixtures';

const SECTIONS = ['Manage My Access', 'Approve Requests', 'Members', 'Candidate Groups', 'Invitations'];
const OWNER_ONLY = ['approve-requests', 'members', 'candidate-groups', 'invitations'];

describe('console: the access section', () => {
  const ctx = useTestApp();
  const web = useConsoleWorld(ctx);
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedTenant>>;
  const at = (page: string) => `/console/${t.id}/access/${page}`;

  beforeAll(async () => {
    t = await seedTenant(ctx, { members: ['bob', 'cyd'], subscribe: ['PHONE', 'SLA'] });
    expect((await api.put(`/api/tenants/${t.id}/owners/cyd`, t.asOwner)).status).toBe(204);
  });

  it("walks an owner through all five sections, and GET /console lands on the first tenant's Manage My Access", async () => {
    const owner = await web.person(t.owner, { name: 'Ada Owner' });
    expect(await owner.open('/console')).toBe(200);
    expect(new URL(owner.page.url()).pathname).toBe(at('my-access'));
    expect(await accessTabs(owner.page)).toEqual(SECTIONS);
    expect(await owner.page.locator('.user').innerText()).toContain('Ada Owner');
    // No development gateway in front (console.dev-sign-in off): no sign-out to offer.
    expect(await owner.page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    for (const label of SECTIONS) {
      await owner.page.getByRole('navigation', { name: 'Access' }).getByRole('link', { name: label }).click();
      await owner.page.getByRole('heading', { level: 1, name: label }).waitFor();
      expect(await owner.page.getByRole('link', { name: label }).getAttribute('aria-current')).toBe('page');
    }
    // The main navigation shows only what the owner holds: access, no capability without a grant.
    expect(await owner.page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allInnerTexts()).toEqual(['Access']);
    await owner.context.close();
  });

  it('shows a non-owner Manage My Access only and returns them there from every owner-only URL, GET and POST', async () => {
    const bob = await web.person('bob');
    expect(await bob.open(at('my-access'))).toBe(200);
    expect(await accessTabs(bob.page)).toEqual(['Manage My Access']);
    for (const page of OWNER_ONLY) {
      expect(await bob.open(at(page))).toBe(200);
      expect(new URL(bob.page.url()).pathname, page).toBe(at('my-access'));
      await bob.page.getByRole('heading', { level: 1, name: 'Manage My Access' }).waitFor();
    }
    await bob.open(at('my-access'));
    const token = await bob.page.locator('input[name=_csrf]').first().inputValue();
    for (const page of OWNER_ONLY) {
      const get = await bob.page.request.get(`${web.base()}${at(page)}`, { maxRedirects: 0 });
      expect(get.status(), page).toBe(303);
      expect(get.headers()['location']).toBe(at('my-access'));
      const post = await bob.page.request.post(`${web.base()}${at(page)}`, { form: { _csrf: token, action: 'add', userId: 'mallory', role: 'tenant-admin' }, maxRedirects: 0 });
      expect(post.status(), page).toBe(303);
      expect(post.headers()['location']).toBe(at('my-access'));
    }
    // Nothing the redirected POSTs asked for happened.
    expect((await api.get(`/api/tenants/${t.id}/members`, t.asOwner)).json.map((m: { userId: string }) => m.userId)).not.toContain('mallory');
    await bob.context.close();
  });

  it('returns an owner who lost ownership between two clicks to Manage My Access, without acting', async () => {
    const dee = 'dee';
    expect((await api.put(`/api/tenants/${t.id}/owners/${dee}`, t.asOwner)).status).toBe(204);
    const former = await web.person(dee);
    await former.open(at('members'));
    await former.page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    expect((await api.del(`/api/tenants/${t.id}/owners/${dee}`, t.asOwner)).status).toBe(204);
    await former.page.getByLabel('User id').fill('mallory');
    await Promise.all([former.page.waitForURL((u) => u.pathname === at('my-access')), former.page.getByRole('button', { name: 'Add member' }).click()]);
    await former.page.getByRole('heading', { level: 1, name: 'Manage My Access' }).waitFor();
    expect(await accessTabs(former.page)).toEqual(['Manage My Access']);
    expect((await api.get(`/api/tenants/${t.id}/members`, t.asOwner)).json.map((m: { userId: string }) => m.userId)).not.toContain('mallory');
    await former.context.close();
  });

  it("shows a request made in one browser, approved with a level override in another, in the requester's Manage My Access", async () => {
    const bob = await web.person('bob', { name: 'Bob Member' });
    await bob.open(at('my-access'));
    await bob.page.getByLabel('Capability').selectOption('PHONE');
    await bob.page.getByLabel('Level').selectOption('read');
    await bob.page.getByLabel('Note for the owners (optional)').fill('For the Monday call list');
    expect(await act(bob.page, bob.page.getByRole('button', { name: 'Send request' }))).toBe(200);
    expect(await noticeIn(bob.page.getByRole('form', { name: 'Request access' }))).toContain('was sent to the owners');
    const mine = bob.page.locator('tbody tr', { hasText: 'Waiting for a decision' });
    expect(await mine.count()).toBe(1);

    const owner = await web.person(t.owner);
    await owner.open(at('approve-requests'));
    const row = owner.page.locator('tbody tr', { hasText: 'Bob Member (bob)' });
    expect(await row.innerText()).toContain('For the Monday call list');
    await row.getByLabel('Level to grant').selectOption('read-write');
    expect(await act(owner.page, row.getByRole('button', { name: /^Approve/ }))).toBe(200);
    expect(await noticeIn(owner.page.locator('#main'))).toBe('Approved: Bob Member (bob) now has read and write access to Phone / Voice.');
    expect(await owner.page.getByText('No request is waiting for a decision.').count()).toBe(1);

    await bob.page.reload();
    const capabilities = bob.page.getByRole('table', { name: 'My capabilities' });
    expect(await capabilities.locator('tbody tr').first().innerText()).toMatch(/Phone \/ Voice\s+Read and write\s+Read and write\s+Never/);
    expect(await bob.page.getByRole('table', { name: 'My requests' }).locator('tbody tr').first().innerText()).toContain('Approved');
    expect((await api.get('/api/my-capabilities', t.as('bob'))).json).toEqual({ PHONE: 'read-write' });
    await Promise.all([bob.context.close(), owner.context.close()]);
  });

  it("refuses self-approval, a request no longer pending and a capability no longer subscribed beside the row, in the API's words", async () => {
    const own = await api.post('/api/access-requests', t.asOwner, { capabilityCode: 'SLA', requestedLevel: 'read' });
    const decided = await api.post('/api/access-requests', t.as('cyd'), { capabilityCode: 'SLA', requestedLevel: 'read' });
    const unsubscribed = await api.post('/api/access-requests', t.as('bob'), { capabilityCode: 'SLA', requestedLevel: 'read' });
    for (const r of [own, decided, unsubscribed]) expect(r.status, r.text).toBe(201);
    const owner = await web.person(t.owner);
    await owner.open(at('approve-requests'));

    const ownRow = owner.page.locator(`#request-${own.json.id}`);
    expect(await act(owner.page, ownRow.getByRole('button', { name: /^Approve/ }))).toBe(403);
    expect(await noticeIn(owner.page.locator(`#request-${own.json.id}`))).toBe('You cannot decide your own request: another owner or a platform operator has to.');

    expect((await api.post(`/api/org/access-requests/${decided.json.id}/deny`, t.asOwner)).status).toBe(200);
    expect(await act(owner.page, owner.page.locator(`#request-${decided.json.id}`).getByRole('button', { name: /^Deny/ }))).toBe(409);
    expect(await noticeIn(owner.page.locator('#main'))).toBe('This request has already been decided, cancelled or has expired, so it can no longer be changed.');

    expect((await api.del(`/api/tenants/${t.id}/capabilities/SLA`, t.asOwner)).status).toBe(204);
    expect(await act(owner.page, owner.page.locator(`#request-${unsubscribed.json.id}`).getByRole('button', { name: /^Approve/ }))).toBe(409);
    expect(await noticeIn(owner.page.locator(`#request-${unsubscribed.json.id}`))).toBe('The tenant is no longer subscribed to this capability, so access to it cannot be granted.');
    expect((await api.put(`/api/tenants/${t.id}/capabilities/SLA`, t.asOwner)).status).toBe(200);
    await owner.context.close();
  });

  it('cancels my own request from Manage My Access', async () => {
    const bob = await web.person('bob');
    await bob.open(at('my-access'));
    const row = bob.page.locator('tbody tr', { hasText: 'Waiting for a decision' });
    const id = (await row.getAttribute('id'))!.replace('request-', '');
    expect(await act(bob.page, row.getByRole('button', { name: /^Cancel request/ }))).toBe(200);
    expect(await noticeIn(bob.page.locator(`#request-${id}`))).toMatch(/^Your request for .+ is cancelled\.$/);
    expect(await bob.page.locator(`#request-${id}`).innerText()).toContain('Cancelled');
    await bob.context.close();
  });

  it('adds a member, makes them an owner, grants them access and revokes it', async () => {
    const owner = await web.person(t.owner);
    await owner.open(at('members'));
    await owner.page.getByLabel('User id').fill('erin');
    expect(await act(owner.page, owner.page.getByRole('button', { name: 'Add member' }))).toBe(200);
    expect(await noticeIn(owner.page.getByRole('form', { name: 'Add a member' }))).toBe('erin is now a member.');
    const erin = owner.page.locator('#member-erin');
    expect(await erin.innerText()).toContain('Member');
    await erin.getByLabel('Role', { exact: true }).selectOption('tenant-admin');
    expect(await act(owner.page, erin.getByRole('button', { name: /^Change role/ }))).toBe(200);
    expect(await noticeIn(owner.page.locator('#member-erin'))).toBe('erin is now an owner.');
    expect((await api.get(`/api/tenants/${t.id}/members`, t.asOwner)).json.find((m: { userId: string }) => m.userId === 'erin').isOwner).toBe(true);

    await owner.page.locator('#member-erin').getByRole('link', { name: /^Grants/ }).click();
    await owner.page.getByRole('heading', { level: 1, name: 'Grants of erin' }).waitFor();
    await owner.page.getByLabel('Capability').selectOption('SLA');
    expect(await act(owner.page, owner.page.getByRole('button', { name: 'Grant', exact: true }))).toBe(200);
    expect(await noticeIn(owner.page.locator('#main'))).toContain('erin now has read access to');
    expect((await api.get(`/api/tenants/${t.id}/users/erin/capabilities`, t.asOwner)).json.map((g: { capabilityCode: string }) => g.capabilityCode)).toEqual(['SLA']);
    expect(await act(owner.page, owner.page.locator('#grant-SLA').getByRole('button', { name: /^Revoke/ }))).toBe(200);
    expect(await owner.page.getByText('erin has no grants in this tenant.').count()).toBe(1);
    await owner.context.close();
  });

  it('creates a candidate group, adds a member to it and removes them; a second group of that name is refused', async () => {
    const owner = await web.person(t.owner);
    await owner.open(at('candidate-groups'));
    expect(await owner.page.getByText('This tenant has no candidate groups yet.').count()).toBe(1);
    await owner.page.getByLabel('Name', { exact: true }).fill('claims-reviewers');
    await owner.page.getByLabel('Description (optional)').fill('Reviews incoming claims');
    expect(await act(owner.page, owner.page.getByRole('button', { name: 'Create group' }))).toBe(200);
    const group = owner.page.getByRole('region', { name: 'claims-reviewers' });
    await group.getByLabel('Add to claims-reviewers').selectOption('erin');
    expect(await act(owner.page, group.getByRole('button', { name: /^Add/ }))).toBe(200);
    expect(await noticeIn(owner.page.getByRole('region', { name: 'claims-reviewers' }))).toBe('erin is now in claims-reviewers.');
    expect((await api.get(`/api/tenants/${t.id}/candidate-groups/claims-reviewers/members`, t.asOwner)).json.map((m: { userId: string }) => m.userId)).toEqual(['erin']);
    await owner.page.getByLabel('Name', { exact: true }).fill('claims-reviewers');
    expect(await act(owner.page, owner.page.getByRole('button', { name: 'Create group' }))).toBe(409);
    expect(await noticeIn(owner.page.getByRole('form', { name: 'Create a group' }))).toBe('A group with this name already exists.');
    expect(await act(owner.page, owner.page.getByRole('region', { name: 'claims-reviewers' }).getByRole('button', { name: /^Remove/ }))).toBe(200);
    expect(await owner.page.getByRole('region', { name: 'claims-reviewers' }).getByText('Nobody is in this group yet.').count()).toBe(1);
    await owner.context.close();
  });

  it('removes a member: their row goes, the answer stays', async () => {
    const owner = await web.person(t.owner);
    await owner.open(at('members'));
    expect(await act(owner.page, owner.page.locator('#member-erin').getByRole('button', { name: /^Remove/ }))).toBe(200);
    expect(await noticeIn(owner.page.locator('#main'))).toMatch(/^erin is no longer a member/);
    expect(await owner.page.locator('#member-erin').count()).toBe(0);
    await owner.context.close();
  });

  it('creates an invitation whose link is shown once and is accepted in a second browser', async () => {
    const owner = await web.person(t.owner);
    await owner.open(at('invitations'));
    await owner.page.getByLabel('Role', { exact: true }).selectOption('member');
    expect(await act(owner.page, owner.page.getByRole('button', { name: 'Create invitation' }))).toBe(200);
    const link = await owner.page.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(new RegExp(`^${web.base()}/console/invitations/[A-Za-z0-9_-]{43}$`));
    await owner.page.getByRole('button', { name: 'Copy link' }).waitFor();
    const token = link.split('/').pop()!;

    const guest = await web.person('gil');
    const accepted = await guest.page.request.post(`${web.base()}/api/invitations/${token}/accept`);
    expect(accepted.status()).toBe(200);
    expect(await accepted.json()).toEqual({ tenantId: t.id, role: 'member' });
    await owner.page.reload();
    expect(await owner.page.getByLabel('Invitation link').count()).toBe(0);
    const used = owner.page.locator('tbody tr', { hasText: 'Accepted' });
    expect(await used.innerText()).toContain('by gil');
    expect(await guest.open(at('my-access'))).toBe(200);

    // The link opens the console's accept page; a used one says so there.
    expect(await guest.open(`/console/invitations/${token}`)).toBe(200);
    await Promise.all([guest.page.waitForResponse((r) => r.request().method() === 'POST'), guest.page.getByRole('button', { name: 'Accept the invitation' }).click()]);
    expect(await noticeIn(guest.page.locator('#main'))).toBe('This invitation has already been used.');
    await Promise.all([owner.context.close(), guest.context.close()]);
  });

  it('revokes an open invitation: its status says so and its link no longer works', async () => {
    const owner = await web.person(t.owner);
    await owner.open(at('invitations'));
    await owner.page.getByLabel('E-mail address (optional, to remember whom it is for)').fill('hal@example.org');
    expect(await act(owner.page, owner.page.getByRole('button', { name: 'Create invitation' }))).toBe(200);
    const second = (await owner.page.getByLabel('Invitation link').inputValue()).split('/').pop()!;
    const open = owner.page.locator('tbody tr', { hasText: 'hal@example.org' });
    expect(await open.innerText()).toContain('Open');
    expect(await act(owner.page, open.getByRole('button', { name: /^Revoke/ }))).toBe(200);
    expect(await owner.page.locator('tbody tr', { hasText: 'hal@example.org' }).innerText()).toContain('Revoked');
    expect(await noticeIn(owner.page.locator('tbody tr', { hasText: 'hal@example.org' }))).toBe('The invitation is revoked: its link no longer works.');
    expect((await api.post(`/api/invitations/${second}/accept`, { user: 'hal' })).status).toBe(404);
    await owner.context.close();
  });

  it('accepts an invitation on its console page and lands in the tenant', async () => {
    const created = await api.post(`/api/tenants/${t.id}/invitations`, t.asOwner, { role: 'member' });
    const newcomer = await web.person('ivy');
    expect(await newcomer.open(`/console/invitations/${created.json.token}`)).toBe(200);
    await Promise.all([newcomer.page.waitForURL((u) => u.pathname === at('my-access')), newcomer.page.getByRole('button', { name: 'Accept the invitation' }).click()]);
    await newcomer.page.getByRole('heading', { level: 1, name: 'Manage My Access' }).waitFor();
    await newcomer.context.close();
  });

  it('shows the last-owner guard as a message beside the owner, for a demotion and a removal', async () => {
    const solo = await seedTenant(ctx, { members: ['bea'] });
    const owner = await web.person(solo.owner);
    await owner.open(`/console/${solo.id}/access/members`);
    const row = owner.page.locator(`[id="member-${solo.owner}"]`);
    await row.getByLabel('Role', { exact: true }).selectOption('member');
    expect(await act(owner.page, row.getByRole('button', { name: /^Change role/ }))).toBe(409);
    expect(await noticeIn(owner.page.locator(`[id="member-${solo.owner}"]`))).toBe('This is the only owner of the tenant. Make someone else an owner first.');
    expect(await act(owner.page, owner.page.locator(`[id="member-${solo.owner}"]`).getByRole('button', { name: /^Remove/ }))).toBe(409);
    expect(await noticeIn(owner.page.locator(`[id="member-${solo.owner}"]`))).toBe('This is the only owner of the tenant. Make someone else an owner first.');
    expect((await api.get(`/api/tenants/${solo.id}/members`, solo.asOwner)).json.find((m: { userId: string }) => m.userId === solo.owner).isOwner).toBe(true);
    await owner.context.close();
  });
});
