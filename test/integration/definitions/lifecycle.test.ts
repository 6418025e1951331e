import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp, type Who } from '../../support/app';
import { LIFECYCLE_CAPABILITIES, type LifecycleCapability } from '../../support/definition-capabilities';
import { expectProblem, seedTenant } from '../../support/fixtures';
import { seedDefinitionTenant } from '../../support/signatures';

/**
 * The one definition lifecycle, run over both capabilities on it: every transition of the spec's
 * tables, the rename and hard purge the shared module has for both, the optimistic lock under
 * parallel saves, the capability guard and tenant isolation.
 */
describe.each(LIFECYCLE_CAPABILITIES)('$code definitions on the shared lifecycle', (cap: LifecycleCapability) => {
  const ctx = useTestApp();
  const api = client(ctx);
  const { base } = cap;
  let t: Awaited<ReturnType<typeof seedDefinitionTenant>>;
  let editor: Who;
  let other: Who;

  const ok = async (p: Promise<{ status: number; text: string; json: any }>, status = 200) => {
    const r = await p;
    expect(r.status, r.text).toBe(status);
    return r.json;
  };
  const create = (who: Who, body: Record<string, unknown> = {}) =>
    ok(api.post(base, who, { name: 'Agreement', ...cap.createFields, draftSchema: cap.valid(0), ...body }), 201);
  const read = (who: Who, id: string) => ok(api.get(`${base}/${id}`, who));
  const save = (who: Who, id: string, draftSchema: unknown, version: number) => api.put(`${base}/${id}/draft`, who, { draftSchema, version });
  const step = (who: Who, id: string, path: string, body?: unknown) => api.post(`${base}/${id}/${path}`, who, body);
  const actions = async (who: Who, id: string) =>
    ((await ok(api.get(`${base}/${id}/audit?limit=200`, who))).items as Array<{ action: string }>).map((e) => e.action).reverse();
  const count = async (table: string, id: string) => {
    const rows = await ctx.db.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.raw(table.endsWith('versions') ? 'definition_id' : 'id')} = ${id}`);
    return (rows as unknown as Array<{ n: number }>)[0]!.n;
  };

  /** A definition with versions 1..n checked in. */
  async function withVersions(n: number) {
    const d = await create(editor);
    let version = d.version;
    for (let i = 1; i <= n; i++) {
      await ok(save(editor, d.id, cap.valid(i), version));
      await ok(step(editor, d.id, 'versions'), 201);
      version = (await read(editor, d.id)).version;
    }
    return read(editor, d.id);
  }

  beforeAll(async () => {
    t = await seedDefinitionTenant(ctx, cap.code);
    editor = t.as('editor');
    other = t.as('other');
  });

  it(`create answers 201 with a DRAFT, a ${cap.codePrefix} code and the draft's problems; GET, by-code and the list answer it`, async () => {
    const d = await create(editor);
    expect(d).toMatchObject({ status: 'DRAFT', version: 1, publishedVersion: null, problems: [], draftSchema: cap.valid(0), createdBy: 'editor' });
    expect(d.code.startsWith(cap.codePrefix)).toBe(true);
    expect(await read(editor, d.id)).toMatchObject({ id: d.id, problems: [], draftSchema: cap.valid(0) });
    expect((await ok(api.get(`${base}/by-code/${d.code}`, editor))).id).toBe(d.id);
    expect((await ok(api.get(`${base}?limit=200`, editor))).items.map((x: { id: string }) => x.id)).toContain(d.id);
    const broken = await create(editor, { draftSchema: cap.invalid });
    expect(broken.problems.some((p: { level: string }) => p.level === 'error')).toBe(true);
    expect((await read(editor, broken.id)).problems).toEqual(broken.problems);
  });

  it('saveDraft stores the draft and moves the counter; a stale counter is 409 version-conflict', async () => {
    const d = await create(editor);
    const saved = await ok(save(editor, d.id, cap.valid(1), d.version));
    expect(saved).toMatchObject({ version: d.version + 1, draftSchema: cap.valid(1), problems: [] });
    expectProblem(await save(editor, d.id, cap.valid(2), d.version), 409, 'version-conflict');
  });

  it('of parallel saves at one counter exactly one wins, round after round', async () => {
    const d = await create(editor);
    let version = d.version;
    for (let round = 0; round < 4; round++) {
      const saves = await Promise.all(Array.from({ length: 5 }, (_, i) => save(i % 2 ? editor : other, d.id, cap.valid(round * 10 + i), version)));
      const won = saves.filter((r) => r.status === 200);
      expect(won, saves.map((r) => r.status).join(',')).toHaveLength(1);
      for (const r of saves) if (r.status !== 200) expectProblem(r, 409, 'version-conflict');
      const now = await read(editor, d.id);
      expect(now.draftSchema).toEqual(won[0]!.json.draftSchema);
      version = now.version;
    }
  });

  it('check-in makes immutable versions max+1, listed and fetched; a draft with errors is 422 draft-invalid', async () => {
    const d = await withVersions(2);
    const versions = await ok(api.get(`${base}/${d.id}/versions`, editor));
    expect(versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect((await ok(api.get(`${base}/${d.id}/versions/2`, editor))).schema).toEqual(cap.valid(2));
    expect(await ok(api.get(`${base}/${d.id}/versions/2/json-schema`, editor))).toHaveProperty('type', 'object');
    expectProblem(await api.get(`${base}/${d.id}/versions/9`, editor), 404, 'version-not-found');
    await ok(save(editor, d.id, cap.invalid, d.version));
    const refused = await step(editor, d.id, 'versions');
    expectProblem(refused, 422, 'draft-invalid');
    expect(refused.json.problems.length).toBeGreaterThan(0);
  });

  it('sign-off needs a version (409) and records itself; publish is 409 unless signed off, then PUBLISHED', async () => {
    const empty = await create(editor);
    expectProblem(await step(editor, empty.id, 'sign-off'), 409, 'no-version-checked-in');
    const d = await withVersions(1);
    expectProblem(await step(editor, d.id, 'versions/1/publish'), 409, 'version-not-signed-off');
    const signed = await ok(step(other, d.id, 'sign-off'));
    expect(signed.lastTestedAt).not.toBeNull();
    expect((await ok(api.get(`${base}/${d.id}/versions/1`, editor))).signedOffBy).toBe('other');
    expect(await ok(step(editor, d.id, 'versions/1/publish'))).toMatchObject({ status: 'PUBLISHED', publishedVersion: 1 });
    expectProblem(await step(editor, d.id, 'versions/7/publish'), 404, 'version-not-found');
  });

  it('restore makes a version the draft; discard returns to the latest and releases the lock', async () => {
    const d = await withVersions(2);
    expect((await ok(step(editor, d.id, 'versions/1/restore'))).draftSchema).toEqual(cap.valid(1));
    await ok(step(editor, d.id, 'checkout'));
    const discarded = await ok(step(editor, d.id, 'discard'));
    expect(discarded).toMatchObject({ draftSchema: cap.valid(2), lockedBy: null });
  });

  it("checkout locks out another user's edits (409 definition-locked) until release", async () => {
    const d = await create(editor);
    expect((await ok(step(editor, d.id, 'checkout'))).lockedBy).toBe('editor');
    const current = await read(editor, d.id);
    expectProblem(await save(other, d.id, cap.valid(1), current.version), 409, 'definition-locked');
    expectProblem(await step(other, d.id, 'checkout'), 409, 'definition-locked');
    expect((await ok(step(editor, d.id, 'release'))).lockedBy).toBeNull();
    await ok(save(other, d.id, cap.valid(1), (await read(editor, d.id)).version));
  });

  it('retire and unretire; publishing from RETIRED is 409', async () => {
    const d = await withVersions(1);
    await ok(step(editor, d.id, 'sign-off'));
    await ok(step(editor, d.id, 'versions/1/publish'));
    expect((await ok(step(editor, d.id, 'retire'))).status).toBe('RETIRED');
    expectProblem(await step(editor, d.id, 'versions/1/publish'), 409, 'definition-retired');
    expect((await ok(step(editor, d.id, 'unretire'))).status).toBe('PUBLISHED');
    expectProblem(await step(editor, d.id, 'unretire'), 409, 'definition-not-retired');
  });

  it('PATCH renames (audited, not stopped by the lock); the same name changes nothing', async () => {
    const d = await create(editor);
    await ok(step(other, d.id, 'checkout'));
    const renamed = await ok(api.call('PATCH', `${base}/${d.id}`, editor, { name: 'Offer letter' }));
    expect(renamed).toMatchObject({ name: 'Offer letter', version: d.version + 2 });
    expect((await ok(api.call('PATCH', `${base}/${d.id}`, editor, { name: 'Offer letter' }))).version).toBe(renamed.version);
    expectProblem(await api.call('PATCH', `${base}/${d.id}`, editor, { name: '' }), 400, 'validation-failed');
    expect(await actions(editor, d.id)).toEqual(['created', 'checked_out', 'renamed']);
  });

  it('POST /{id}/restore undoes a soft delete; on a live definition it changes nothing', async () => {
    const d = await withVersions(1);
    expect((await api.del(`${base}/${d.id}`, editor)).status).toBe(204);
    expectProblem(await api.get(`${base}/by-code/${d.code}`, editor), 404, 'definition-not-found');
    const back = await ok(step(other, d.id, 'restore'));
    expect(back).toMatchObject({ id: d.id, code: d.code, status: d.status, draftSchema: cap.valid(1) });
    expect((await ok(step(other, d.id, 'restore'))).version).toBe(back.version);
    expect((await ok(api.get(`${base}/${d.id}/versions`, editor))).length).toBe(1);
    expect((await actions(editor, d.id)).slice(-2)).toEqual(['deleted', 'undeleted']);
  });

  it('soft delete hides the definition (404) but keeps its trail; the hard purge removes it and its versions for good', async () => {
    const d = await withVersions(2);
    expect((await api.del(`${base}/${d.id}`, editor)).status).toBe(204);
    expectProblem(await api.get(`${base}/${d.id}`, editor), 404, 'definition-not-found');
    expect(await count(cap.tables.versions, d.id)).toBe(2);
    expect((await api.del(`${base}/${d.id}/purge`, editor)).status).toBe(204);
    expect(await count(cap.tables.definitions, d.id)).toBe(0);
    expect(await count(cap.tables.versions, d.id)).toBe(0);
    expect(await actions(editor, d.id)).toEqual(['created', 'saved', 'checked_in', 'saved', 'checked_in', 'deleted', 'purged']);
    expectProblem(await api.del(`${base}/${d.id}/purge`, editor), 404, 'definition-not-found');
    expectProblem(await step(editor, d.id, 'restore'), 404, 'definition-not-found');

    const live = await withVersions(1);
    await ok(step(other, live.id, 'checkout'));
    expectProblem(await api.del(`${base}/${live.id}/purge`, editor), 409, 'definition-locked');
    expect((await api.del(`${base}/${live.id}/purge`, other)).status).toBe(204);
    expect(await count(cap.tables.definitions, live.id)).toBe(0);
  });

  it('the capability guard: reads need read, writes read-write; no grant or no subscription is 403', async () => {
    const d = await create(editor);
    const reader = t.as('reader');
    await ok(api.get(`${base}/${d.id}`, reader));
    await ok(api.get(`${base}/${d.id}/audit`, reader));
    expectProblem(await save(reader, d.id, cap.valid(1), d.version), 403, 'capability-write-required');
    expectProblem(await api.del(`${base}/${d.id}/purge`, reader), 403, 'capability-write-required');
    expectProblem(await api.call('PATCH', `${base}/${d.id}`, reader, { name: 'x' }), 403, 'capability-write-required');
    expectProblem(await api.get(`${base}/${d.id}`, t.as('outsider')), 403, 'capability-not-granted');
    const unsubscribed = await seedTenant(ctx);
    expectProblem(await api.get(base, unsubscribed.asOwner), 403, 'capability-not-subscribed');
  });

  it("another tenant's definition is 404 on every route under /{id}, and nothing changes", async () => {
    const d = await withVersions(1);
    const foreign = await seedDefinitionTenant(ctx, cap.code);
    const doc = (await api.get('/openapi.json', null)).json as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith(`${base}/{id}`))
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method, path })));
    expect(routes.map((r) => `${r.method} ${r.path.slice(base.length)}`)).toEqual(expect.arrayContaining(['patch /{id}', 'delete /{id}/purge', 'post /{id}/restore', 'get /{id}/audit']));
    const before = await read(editor, d.id);
    for (const { method, path } of routes) {
      // A body each route accepts, so the 404 is the tenant's answer and not a validation one.
      const put = path.endsWith('/outbound-config') ? { roles: {} } : { draftSchema: cap.valid(1), version: 1 };
      const post = path.endsWith('/send') ? { recipient: { email: 'ann@example.com' } } : {};
      const body = method === 'put' ? put : method === 'patch' ? { name: 'x' } : method === 'post' ? post : undefined;
      const url = path.replace('{id}', d.id).replace('{v}', '1').replace('{key}', '7f0c6a52-3b5e-4a44-9c1e-2d7a0d9b1c11');
      const r = path.endsWith('/document') ? await api.call('POST', url, foreign.asOwner, '--x--', { 'Content-Type': 'multipart/form-data; boundary=x' }) : await api.call(method.toUpperCase(), url, foreign.asOwner, body);
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(404);
      expect(r.json.code, `${method} ${path}`).toBe('definition-not-found');
    }
    expect(await read(editor, d.id)).toEqual(before);
  });
});
