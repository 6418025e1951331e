import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app';
import { expectProblem } from '../../support/fixtures';
import { BASE, formsApi, seedFormsTenant, VALID_DRAFT } from '../../support/forms';

describe('form definition audit trail', () => {
  const ctx = useTestApp();
  const api = formsApi(ctx);
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;

  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
  });

  it("writes one FormAuditEvent per action, with the spec's names (created, checked_in, tested, published, archived)", async () => {
    const who = t.as('editor');
    const d = await api.create(who);
    const locked = (await api.step(who, d.id, 'checkout')).json;
    await api.save(who, d.id, VALID_DRAFT, locked.version);
    await api.checkIn(who, d.id);
    await api.step(who, d.id, 'sign-off');
    await api.step(who, d.id, 'versions/1/publish');
    await api.step(who, d.id, 'versions/1/restore');
    await api.step(who, d.id, 'checkout');
    await api.step(who, d.id, 'release');
    await api.step(who, d.id, 'discard');
    await api.step(who, d.id, 'retire');
    await api.step(who, d.id, 'unretire');
    const clone = (await api.step(who, d.id, 'clone', {})).json;
    await api.del(`${BASE}/${d.id}`, who);
    const events = await api.audit(who, d.id);
    expect(events.map((e) => e.action)).toEqual([
      'created',
      'checked_out',
      'saved',
      'checked_in',
      'tested',
      'published',
      'restored',
      'checked_out',
      'released',
      'discarded',
      'archived',
      'unretired',
      'cloned',
      'deleted',
    ]);
    expect(events.every((e) => e.actor === 'editor')).toBe(true);
    expect(events[0]!.detail).toEqual({ code: d.code });
    expect(events[3]!.detail).toEqual({ version: 1 });
    expect(events[5]!.detail).toEqual({ version: 1, previous: null });
    expect(events[11]!.detail).toEqual({ to: 'PUBLISHED' });
    expect(events[12]!.detail).toMatchObject({ to: { id: clone.id, code: clone.code }, version: 1 });
  });

  it('a refused step writes no audit event; a step that changes nothing writes none either', async () => {
    const who = t.as('editor');
    const d = await api.create(who);
    expectProblem(await api.step(who, d.id, 'sign-off'), 409, 'no-version-checked-in');
    await api.step(who, d.id, 'release');
    expect((await api.audit(who, d.id)).map((e) => e.action)).toEqual(['created']);
  });

  it('pages newest first with limit and before', async () => {
    const who = t.as('editor');
    const d = await api.create(who);
    for (let i = 0; i < 4; i++) await api.step(who, d.id, 'checkout');
    const page = await api.get(`${BASE}/${d.id}/audit?limit=3`, who);
    expect(page.json.items.map((e: { action: string }) => e.action)).toEqual(['checked_out', 'checked_out', 'checked_out']);
    const rest = await api.get(`${BASE}/${d.id}/audit?limit=3&before=${page.json.nextBefore}`, who);
    expect(rest.json.items.map((e: { action: string }) => e.action)).toEqual(['checked_out', 'created']);
    expect(rest.json.nextBefore).toBeNull();
  });

  it('audit events are immutable at the database: UPDATE and DELETE fail', async () => {
    await api.create(t.as('editor'));
    const update = await ctx.db.db.execute(sql`update form_audit_events set actor = 'forged'`).catch((e: Error) => e);
    expect(String((update as Error).cause)).toMatch(/immutable/);
    const del = await ctx.db.db.execute(sql`delete from form_audit_events`).catch((e: Error) => e);
    expect(String((del as Error).cause)).toMatch(/immutable/);
  });

  it('a checked-in version is immutable at the database; only its first sign-off is recorded', async () => {
    const who = t.as('editor');
    const d = await api.create(who);
    await api.checkIn(who, d.id);
    const change = await ctx.db.db
      .execute(sql`update form_versions set schema = '{"title":"forged","fields":[]}'::jsonb where definition_id = ${d.id}`)
      .catch((e: Error) => e);
    expect(String((change as Error).cause)).toMatch(/immutable/);
    await api.step(who, d.id, 'sign-off');
    const resign = await ctx.db.db
      .execute(sql`update form_versions set signed_off_by = 'forged' where definition_id = ${d.id}`)
      .catch((e: Error) => e);
    expect(String((resign as Error).cause)).toMatch(/immutable/);
  });
});

describe('form definition guard: FORMS, reads need read, writes read-write', () => {
  const ctx = useTestApp();
  const api = formsApi(ctx);

  it('a read grant reads but does not write; no grant is 403 capability-not-granted', async () => {
    const t = await seedFormsTenant(ctx);
    const d = await api.create(t.as('editor'));
    expect((await api.get(`${BASE}/${d.id}`, t.as('reader'))).status).toBe(200);
    expect((await api.get(`${BASE}/${d.id}/versions`, t.as('reader'))).status).toBe(200);
    expectProblem(await api.post(BASE, t.as('reader'), { name: 'x', kind: 'INBOUND' }), 403, 'capability-write-required');
    expectProblem(await api.step(t.as('reader'), d.id, 'checkout'), 403, 'capability-write-required');
    expectProblem(await api.save(t.as('reader'), d.id, VALID_DRAFT, d.version), 403, 'capability-write-required');
    expectProblem(await api.get(`${BASE}/${d.id}`, t.as('outsider')), 403, 'capability-not-granted');
  });

  it('a tenant without a FORMS subscription is 403 capability-not-subscribed', async () => {
    const t = await seedFormsTenant(ctx);
    await api.del(`/api/tenants/${t.id}/capabilities/FORMS`, t.asOwner);
    expectProblem(await api.get(BASE, t.as('editor')), 403, 'capability-not-subscribed');
  });
});
