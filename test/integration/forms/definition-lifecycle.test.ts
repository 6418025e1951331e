import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app';
import { expectProblem } from '../../support/fixtures';
import { ageLock, BASE, formsApi, INVALID_DRAFT, seedFormsTenant, VALID_DRAFT } from '../../support/forms';

/** Every transition of the spec's "Form definition" table, one test (or more) each. */
describe('form definition lifecycle', () => {
  const ctx = useTestApp();
  const api = formsApi(ctx);
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let editor: { user: string; tenant: string };
  let other: { user: string; tenant: string };

  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    editor = t.as('editor') as typeof editor;
    other = t.as('other') as typeof other;
  });

  /** A definition with versions 1..n checked in (each from a draft titled `v<i>`). */
  async function withVersions(n: number, extra: Record<string, unknown> = {}) {
    const d = await api.create(editor, extra);
    let version = d.version;
    for (let i = 1; i <= n; i++) {
      const saved = await api.save(editor, d.id, { ...VALID_DRAFT, title: `v${i}` }, version);
      expect(saved.status, saved.text).toBe(200);
      const checked = await api.checkIn(editor, d.id);
      expect(checked.status, checked.text).toBe(201);
      version = (await api.read(editor, d.id)).version;
    }
    return api.read(editor, d.id);
  }

  describe('create', () => {
    it('answers 201 with a DRAFT definition, version 1 and a code FM- + 4 characters + DDMMMYY of today', async () => {
      const r = await api.post(BASE, editor, { name: 'Intake', kind: 'INBOUND', draftSchema: VALID_DRAFT, allowedEmbedOrigins: ['https://shop.example'] });
      expect(r.status, r.text).toBe(201);
      const now = new Date();
      const date = `${String(now.getUTCDate()).padStart(2, '0')}${now.toLocaleString('en', { month: 'short', timeZone: 'UTC' }).toUpperCase()}${String(now.getUTCFullYear() % 100).padStart(2, '0')}`;
      expect(r.json.code).toMatch(new RegExp(`^FM-[A-Z2-9]{4}${date}$`));
      expect(r.json).toMatchObject({
        name: 'Intake',
        kind: 'INBOUND',
        status: 'DRAFT',
        version: 1,
        publishedVersion: null,
        draftSchema: VALID_DRAFT,
        problems: [],
        lockedBy: null,
        lastTestedAt: null,
        allowedEmbedOrigins: ['https://shop.example'],
        embedKeyVersion: 1,
        outboundRoles: {},
        submissionHandling: null,
        createdBy: 'editor',
      });
      expect((await api.read(editor, r.json.id)).code).toBe(r.json.code);
      const byCode = await api.get(`${BASE}/by-code/${r.json.code}`, editor);
      expect(byCode.json.id).toBe(r.json.id);
    });

    it('codes are unique per tenant', async () => {
      const codes = new Set<string>();
      for (let i = 0; i < 15; i++) codes.add((await api.create(editor)).code);
      expect(codes.size).toBe(15);
    });

    it('without draftSchema the draft is the empty form; an invalid draft is stored and its problems answered', async () => {
      const empty = await api.post(BASE, editor, { name: 'Empty', kind: 'OUTBOUND' });
      expect(empty.status, empty.text).toBe(201);
      expect(empty.json.draftSchema).toEqual({ title: 'Untitled form', fields: [] });
      expect(empty.json.kind).toBe('OUTBOUND');
      const invalid = await api.post(BASE, editor, { name: 'Broken', kind: 'INBOUND', draftSchema: INVALID_DRAFT });
      expect(invalid.status, invalid.text).toBe(201);
      expect(invalid.json.draftSchema).toEqual(INVALID_DRAFT);
      expect(invalid.json.problems.filter((p: { level: string }) => p.level === 'error').length).toBeGreaterThan(0);
    });
  });

  describe('checkout (advisory lock)', () => {
    it('sets lockedBy and lockedAt; checking out again renews the own lock', async () => {
      const d = await api.create(editor);
      const first = await api.step(editor, d.id, 'checkout');
      expect(first.status, first.text).toBe(200);
      expect(first.json).toMatchObject({ lockedBy: 'editor', version: 2 });
      const again = await api.step(editor, d.id, 'checkout');
      expect(again.status).toBe(200);
      expect(again.json.lockedBy).toBe('editor');
      expect(Date.parse(again.json.lockedAt)).toBeGreaterThanOrEqual(Date.parse(first.json.lockedAt));
    });

    it("a fresh lock of another user is 409 definition-locked, naming the holder", async () => {
      const d = await api.create(editor);
      await api.step(editor, d.id, 'checkout');
      await ageLock(ctx, d.id, 29);
      const r = await api.step(other, d.id, 'checkout');
      expectProblem(r, 409, 'definition-locked');
      expect(r.json.lockedBy).toBe('editor');
    });

    it('a lock older than forms.lock-ttl-minutes (default 30) is taken over', async () => {
      const d = await api.create(editor);
      await api.step(editor, d.id, 'checkout');
      await ageLock(ctx, d.id, 31);
      const r = await api.step(other, d.id, 'checkout');
      expect(r.status, r.text).toBe(200);
      expect(r.json.lockedBy).toBe('other');
      const last = (await api.audit(editor, d.id)).at(-1)!;
      expect(last).toMatchObject({ action: 'checked_out', actor: 'other', detail: { takenOverFrom: 'editor' } });
    });
  });

  describe('saveDraft', () => {
    it('stores the draft and moves the counter; no checkout is needed', async () => {
      const d = await api.create(editor);
      const r = await api.save(editor, d.id, { ...VALID_DRAFT, title: 'Changed' }, d.version);
      expect(r.status, r.text).toBe(200);
      expect(r.json).toMatchObject({ version: d.version + 1, draftSchema: { title: 'Changed' }, problems: [] });
      expect((await api.read(editor, d.id)).draftSchema.title).toBe('Changed');
    });

    it('a stale version is 409 version-conflict and changes nothing', async () => {
      const d = await api.create(editor);
      expect((await api.save(editor, d.id, VALID_DRAFT, d.version)).status).toBe(200);
      expectProblem(await api.save(other, d.id, { ...VALID_DRAFT, title: 'Lost' }, d.version), 409, 'version-conflict');
      expect((await api.read(editor, d.id)).draftSchema.title).toBe('T');
    });

    it("another user's fresh lock refuses the save (409 definition-locked); the holder saves and renews", async () => {
      const d = await api.create(editor);
      const locked = (await api.step(editor, d.id, 'checkout')).json;
      expectProblem(await api.save(other, d.id, VALID_DRAFT, locked.version), 409, 'definition-locked');
      const own = await api.save(editor, d.id, VALID_DRAFT, locked.version);
      expect(own.status, own.text).toBe(200);
      expect(own.json.lockedBy).toBe('editor');
      await ageLock(ctx, d.id, 31);
      expect((await api.save(other, d.id, VALID_DRAFT, own.json.version)).status).toBe(200);
    });

    it('an invalid draft is saved and its problems are answered', async () => {
      const d = await api.create(editor);
      const r = await api.save(editor, d.id, INVALID_DRAFT, d.version);
      expect(r.status, r.text).toBe(200);
      expect(r.json.draftSchema).toEqual(INVALID_DRAFT);
      expect(r.json.problems.some((p: { level: string }) => p.level === 'error')).toBe(true);
    });
  });

  describe('check-in', () => {
    it('creates version max+1 from the draft (201 { version }) and releases the lock', async () => {
      const d = await api.create(editor);
      await api.step(editor, d.id, 'checkout');
      const first = await api.checkIn(editor, d.id);
      expect(first.status, first.text).toBe(201);
      expect(first.json).toMatchObject({ version: 1, checkedInBy: 'editor', signedOffAt: null, definitionId: d.id });
      expect((await api.read(editor, d.id)).lockedBy).toBeNull();
      expect((await api.checkIn(editor, d.id)).json.version).toBe(2);
      const v1 = await api.get(`${BASE}/${d.id}/versions/1`, editor);
      expect(v1.json).toMatchObject({ version: 1, schema: VALID_DRAFT });
    });

    it('an invalid draft cannot be checked in (422 draft-invalid with its problems)', async () => {
      const d = await api.create(editor, { draftSchema: INVALID_DRAFT });
      const r = await api.checkIn(editor, d.id);
      expectProblem(r, 422, 'draft-invalid');
      expect(r.json.problems.some((p: { level: string }) => p.level === 'error')).toBe(true);
      expect((await api.get(`${BASE}/${d.id}/versions`, editor)).json).toEqual([]);
    });

    it("another user's fresh lock refuses the check-in (409 definition-locked)", async () => {
      const d = await api.create(editor);
      await api.step(editor, d.id, 'checkout');
      expectProblem(await api.checkIn(other, d.id), 409, 'definition-locked');
    });

    it('a version keeps its schema when the draft changes afterwards', async () => {
      const d = await withVersions(1);
      expect((await api.save(editor, d.id, { ...VALID_DRAFT, title: 'later' }, d.version)).status).toBe(200);
      expect((await api.get(`${BASE}/${d.id}/versions/1`, editor)).json.schema.title).toBe('v1');
    });
  });

  describe('sign-off', () => {
    it('signs off the latest version and mirrors lastTestedAt', async () => {
      const d = await withVersions(2);
      const r = await api.step(other, d.id, 'sign-off');
      expect(r.status, r.text).toBe(200);
      const versions = (await api.get(`${BASE}/${d.id}/versions`, editor)).json;
      expect(versions[0]).toMatchObject({ version: 1, signedOffAt: null });
      expect(versions[1]).toMatchObject({ version: 2, signedOffBy: 'other' });
      expect(r.json.lastTestedAt).toBe(versions[1].signedOffAt);
    });

    it('is 409 no-version-checked-in before any check-in, and repeating it changes nothing', async () => {
      const d = await api.create(editor);
      expectProblem(await api.step(editor, d.id, 'sign-off'), 409, 'no-version-checked-in');
      await api.checkIn(editor, d.id);
      const first = await api.step(editor, d.id, 'sign-off');
      const again = await api.step(editor, d.id, 'sign-off');
      expect(again.status).toBe(200);
      expect(again.json).toMatchObject({ version: first.json.version, lastTestedAt: first.json.lastTestedAt });
    });
  });

  describe('publish version v', () => {
    it('is 409 version-not-signed-off unless v is signed off; then PUBLISHED with publishedVersion v', async () => {
      const d = await withVersions(1);
      expectProblem(await api.step(editor, d.id, 'versions/1/publish'), 409, 'version-not-signed-off');
      await api.step(editor, d.id, 'sign-off');
      const r = await api.step(editor, d.id, 'versions/1/publish');
      expect(r.status, r.text).toBe(200);
      expect(r.json).toMatchObject({ status: 'PUBLISHED', publishedVersion: 1 });
    });

    it('publishing another signed-off version while PUBLISHED switches publishedVersion', async () => {
      const d = await withVersions(1);
      await api.step(editor, d.id, 'sign-off');
      await api.step(editor, d.id, 'versions/1/publish');
      const after = await api.read(editor, d.id);
      await api.save(editor, d.id, { ...VALID_DRAFT, title: 'v2' }, after.version);
      await api.checkIn(editor, d.id);
      expectProblem(await api.step(editor, d.id, 'versions/2/publish'), 409, 'version-not-signed-off');
      await api.step(editor, d.id, 'sign-off');
      const r = await api.step(editor, d.id, 'versions/2/publish');
      expect(r.json).toMatchObject({ status: 'PUBLISHED', publishedVersion: 2 });
      // Publishing an older signed-off version is allowed too (a rollback).
      expect((await api.step(editor, d.id, 'versions/1/publish')).json.publishedVersion).toBe(1);
    });

    it('an unknown version is 404 version-not-found; a RETIRED definition is 409 definition-retired', async () => {
      const d = await withVersions(1);
      expectProblem(await api.step(editor, d.id, 'versions/7/publish'), 404, 'version-not-found');
      await api.step(editor, d.id, 'sign-off');
      await api.step(editor, d.id, 'retire');
      expectProblem(await api.step(editor, d.id, 'versions/1/publish'), 409, 'definition-retired');
    });
  });

  describe('retire and unretire', () => {
    it('retire makes any status RETIRED and keeps publishedVersion; unretire goes back to PUBLISHED', async () => {
      const d = await withVersions(1);
      await api.step(editor, d.id, 'sign-off');
      await api.step(editor, d.id, 'versions/1/publish');
      const retired = await api.step(editor, d.id, 'retire');
      expect(retired.json).toMatchObject({ status: 'RETIRED', publishedVersion: 1 });
      expect((await api.step(editor, d.id, 'retire')).json.version).toBe(retired.json.version);
      expect((await api.step(editor, d.id, 'unretire')).json).toMatchObject({ status: 'PUBLISHED', publishedVersion: 1 });
    });

    it('unretire of a never-published definition goes back to DRAFT; unretire when not RETIRED is 409', async () => {
      const d = await api.create(editor);
      expectProblem(await api.step(editor, d.id, 'unretire'), 409, 'definition-not-retired');
      expect((await api.step(editor, d.id, 'retire')).json.status).toBe('RETIRED');
      expect((await api.step(editor, d.id, 'unretire')).json).toMatchObject({ status: 'DRAFT', publishedVersion: null });
    });
  });

  describe('restore version v', () => {
    it("makes v's schema the draft; an unknown version is 404 version-not-found", async () => {
      const d = await withVersions(2);
      const r = await api.step(editor, d.id, 'versions/1/restore');
      expect(r.status, r.text).toBe(200);
      expect(r.json.draftSchema.title).toBe('v1');
      expect(r.json.status).toBe('DRAFT');
      expectProblem(await api.step(editor, d.id, 'versions/9/restore'), 404, 'version-not-found');
    });

    it("another user's fresh lock refuses it (409 definition-locked)", async () => {
      const d = await withVersions(1);
      await api.step(editor, d.id, 'checkout');
      expectProblem(await api.step(other, d.id, 'versions/1/restore'), 409, 'definition-locked');
    });
  });

  describe('discard', () => {
    it('returns the draft to the last checked-in version and releases the lock', async () => {
      const d = await withVersions(2);
      const locked = (await api.step(editor, d.id, 'checkout')).json;
      await api.save(editor, d.id, { ...VALID_DRAFT, title: 'scratch' }, locked.version);
      const r = await api.step(editor, d.id, 'discard');
      expect(r.status, r.text).toBe(200);
      expect(r.json).toMatchObject({ draftSchema: { title: 'v2' }, lockedBy: null });
    });

    it('is 409 no-version-checked-in before any check-in; refused under a foreign fresh lock', async () => {
      const d = await api.create(editor);
      expectProblem(await api.step(editor, d.id, 'discard'), 409, 'no-version-checked-in');
      await api.checkIn(editor, d.id);
      await api.step(editor, d.id, 'checkout');
      expectProblem(await api.step(other, d.id, 'discard'), 409, 'definition-locked');
    });
  });

  describe('release', () => {
    it('releases the own lock; unlocked changes nothing; a foreign fresh lock is 409, a stale one is released', async () => {
      const d = await api.create(editor);
      const unlocked = await api.step(editor, d.id, 'release');
      expect(unlocked.json).toMatchObject({ lockedBy: null, version: d.version });
      await api.step(editor, d.id, 'checkout');
      expectProblem(await api.step(other, d.id, 'release'), 409, 'definition-locked');
      expect((await api.step(editor, d.id, 'release')).json.lockedBy).toBeNull();
      await api.step(editor, d.id, 'checkout');
      await ageLock(ctx, d.id, 31);
      expect((await api.step(other, d.id, 'release')).json.lockedBy).toBeNull();
    });
  });

  describe('clone', () => {
    it('creates a new DRAFT definition from the latest version by default, with its own code and no versions', async () => {
      const d = await withVersions(2, { kind: 'OUTBOUND', submissionHandling: 'process' });
      const r = await api.step(editor, d.id, 'clone', {});
      expect(r.status, r.text).toBe(201);
      expect(r.json).toMatchObject({
        status: 'DRAFT',
        version: 1,
        name: 'Intake (copy)',
        kind: 'OUTBOUND',
        submissionHandling: 'process',
        draftSchema: { title: 'v2' },
        publishedVersion: null,
      });
      expect(r.json.id).not.toBe(d.id);
      expect(r.json.code).not.toBe(d.code);
      expect((await api.get(`${BASE}/${r.json.id}/versions`, editor)).json).toEqual([]);
      expect((await api.audit(editor, r.json.id))[0]).toMatchObject({ action: 'created', detail: { clonedFrom: { id: d.id, version: 2 } } });
    });

    it('clones the version and name asked for; works without a body; 404 for an unknown version, 409 without versions', async () => {
      const d = await withVersions(2);
      const r = await api.step(editor, d.id, 'clone', { version: 1, name: 'Second intake' });
      expect(r.json).toMatchObject({ name: 'Second intake', draftSchema: { title: 'v1' } });
      expect((await api.step(editor, d.id, 'clone')).status).toBe(201);
      expectProblem(await api.step(editor, d.id, 'clone', { version: 5 }), 404, 'version-not-found');
      const bare = await api.create(editor);
      expectProblem(await api.step(editor, bare.id, 'clone', {}), 409, 'no-version-checked-in');
    });
  });

  describe('soft delete', () => {
    it('answers 204; the definition is 404 afterwards and gone from lists, its audit trail stays readable', async () => {
      const d = await api.create(editor);
      expect((await api.del(`${BASE}/${d.id}`, editor)).status).toBe(204);
      expectProblem(await api.get(`${BASE}/${d.id}`, editor), 404, 'definition-not-found');
      expectProblem(await api.get(`${BASE}/by-code/${d.code}`, editor), 404, 'definition-not-found');
      expectProblem(await api.del(`${BASE}/${d.id}`, editor), 404, 'definition-not-found');
      const list = await api.get(`${BASE}?limit=200`, editor);
      expect(list.json.items.map((i: { id: string }) => i.id)).not.toContain(d.id);
      expect((await api.audit(editor, d.id)).map((e) => e.action)).toEqual(['created', 'deleted']);
    });

    it("is refused under another user's fresh lock (409 definition-locked)", async () => {
      const d = await api.create(editor);
      await api.step(editor, d.id, 'checkout');
      expectProblem(await api.del(`${BASE}/${d.id}`, other), 409, 'definition-locked');
    });
  });
});
