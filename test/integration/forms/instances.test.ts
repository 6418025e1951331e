import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { formsApi, seedFormsTenant } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';

const BASE = '/api/form-instances';

describe('form instance routes', () => {
  const ctx = useTestApp({ 'forms.embed-key': EMBED_KEY });
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let other: Awaited<ReturnType<typeof seedFormsTenant>>;
  let def: { id: string; code: string };
  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    other = await seedFormsTenant(ctx);
    def = (await publishedForm(ctx, t.asOwner)).def;
  });

  it('create (DRAFT, pinned), patch (optimistic), submit (validated; SUBMITTED + intake row), then no more edits', async () => {
    const c = await api.post(BASE, t.asOwner, { definitionCode: def.code, prefill: { name: 'Ann' }, context: { taskId: 'task-1' } });
    expect(c.status, c.text).toBe(201);
    expect(c.json).toMatchObject({ state: 'DRAFT', definitionVersion: 1, version: 1, context: { taskId: 'task-1' }, submissionOutbox: null });
    const id = c.json.id;
    const p = await api.call('PATCH', `${BASE}/${id}`, t.asOwner, { data: { name: 'Ann' }, version: 1 });
    expect(p.status, p.text).toBe(200);
    expect((await api.call('PATCH', `${BASE}/${id}`, t.asOwner, { data: { name: 'B' }, version: 1 })).json.code).toBe('version-conflict');
    const bad = await api.post(`${BASE}/${id}/submit`, t.asOwner, {});
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].path).toBe('data.email');
    const s = await api.post(`${BASE}/${id}/submit`, t.asOwner, { data: { name: 'Ann', email: 'ann@example.com' } });
    expect(s.status, s.text).toBe(200);
    expect(s.json).toMatchObject({ state: 'SUBMITTED', context: { processStartStatus: 'QUEUED', taskId: 'task-1' }, submissionOutbox: { status: 'QUEUED' } });
    expect((await api.post(`${BASE}/${id}/submit`, t.asOwner, {})).json.code).toBe('instance-state-conflict');
    expect((await api.post(`${BASE}/${id}/cancel`, t.asOwner)).json.code).toBe('instance-state-conflict');
  });

  it('cancel an open instance; an unpublished definition gives 409 form-not-published', async () => {
    const c = await api.post(BASE, t.asOwner, { definitionId: def.id });
    const r = await api.post(`${BASE}/${c.json.id}/cancel`, t.asOwner);
    expect(r.json.state).toBe('CANCELLED');
    const draft = await formsApi(ctx).create(t.asOwner);
    expect((await api.post(BASE, t.asOwner, { definitionId: draft.id })).json.code).toBe('form-not-published');
  });

  it('a definition whose version an instance pins is not purged: 409 definition-in-use, nothing removed, no audit event', async () => {
    const { def: pinned } = await publishedForm(ctx, t.asOwner);
    expect((await api.post(BASE, t.asOwner, { definitionId: pinned.id })).status).toBe(201);
    const r = await api.call('DELETE', `/api/form-definitions/${pinned.id}/purge`, t.asOwner);
    expect(r.status, r.text).toBe(409);
    expect(r.json.code).toBe('definition-in-use');
    expect((await api.get(`/api/form-definitions/${pinned.id}`, t.asOwner)).status).toBe(200);
    const audit = await api.get(`/api/form-definitions/${pinned.id}/audit`, t.asOwner);
    expect(audit.json.items.map((e: { action: string }) => e.action)).not.toContain('purged');
  });

  it('list newest first, filtered, keyset-paged', async () => {
    const r1 = await api.get(`${BASE}?definitionCode=${def.code}&limit=1`, t.asOwner);
    expect(r1.status, r1.text).toBe(200);
    expect(r1.json.items).toHaveLength(1);
    const r2 = await api.get(`${BASE}?definitionCode=${def.code}&limit=1&cursor=${r1.json.nextCursor}`, t.asOwner);
    expect(r2.json.items[0].createdAt <= r1.json.items[0].createdAt).toBe(true);
    expect(r2.json.items[0].id).not.toBe(r1.json.items[0].id);
    const cancelled = await api.get(`${BASE}?state=CANCELLED`, t.asOwner);
    expect(cancelled.json.items.every((i: { state: string }) => i.state === 'CANCELLED')).toBe(true);
  });

  it('following nextCursor visits every instance once when several share one millisecond (PostgreSQL keeps microseconds)', async () => {
    const { def: own } = await publishedForm(ctx, t.asOwner);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await api.post(BASE, t.asOwner, { definitionId: own.id })).json.id);
    // One millisecond, five microseconds: a cursor that keeps milliseconds only skips rows.
    await ctx.db.sql`update form_instances set created_at = '2026-03-01T10:00:00.123000Z'::timestamptz + (array_position(${ids}::uuid[], id) * 100) * interval '1 microsecond' where id = any(${ids}::uuid[])`;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await api.get(`${BASE}?definitionCode=${own.code}&limit=2${cursor ? `&cursor=${cursor}` : ''}`, t.asOwner);
      expect(r.status, r.text).toBe(200);
      seen.push(...r.json.items.map((i: { id: string }) => i.id));
      cursor = r.json.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it("another tenant's instance is 404 on every route, and absent from its list", async () => {
    const c = await api.post(BASE, t.asOwner, { definitionId: def.id });
    const id = c.json.id;
    const who = other.asOwner;
    expect((await api.get(`${BASE}/${id}`, who)).status).toBe(404);
    expect((await api.call('PATCH', `${BASE}/${id}`, who, { data: {}, version: 1 })).status).toBe(404);
    expect((await api.post(`${BASE}/${id}/submit`, who, {})).status).toBe(404);
    expect((await api.post(`${BASE}/${id}/cancel`, who)).status).toBe(404);
    expect((await api.post(BASE, who, { definitionId: def.id })).status).toBe(404);
    expect((await api.get(BASE, who)).json.items.map((i: { id: string }) => i.id)).not.toContain(id);
    expect((await api.get(`${BASE}/${id}`, t.asOwner)).json.state).toBe('DRAFT');
  });

  it('read grant may read, not write', async () => {
    const reader = { user: 'reader', tenant: t.id };
    expect((await api.get(BASE, reader)).status).toBe(200);
    expect((await api.post(BASE, reader, { definitionId: def.id })).status).toBe(403);
  });
});
