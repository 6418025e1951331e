// allowedEmbedOrigins after create: PATCH of the definition (any status; sanitised like create,
// dropped origins answered as warnings; audited `embed_origins_set`; the embed page and the SDK's
// frame check follow at once), and clones that copy the origins only when asked.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app';
import { formsApi, seedFormsTenant, VALID_DRAFT } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';

const BASE = '/api/form-definitions';

describe('embed origins: PATCH and clone', () => {
  const ctx = useTestApp({ 'forms.embed-key': EMBED_KEY });
  const api = formsApi(ctx);
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let other: Awaited<ReturnType<typeof seedFormsTenant>>;
  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    other = await seedFormsTenant(ctx);
  });
  const patch = (id: string, body: unknown, who = t.asOwner) => api.call('PATCH', `${BASE}/${id}`, who, body);
  const frameAncestors = async (token: string) => {
    const res = await ctx.app.request(`/embed/${token}`);
    return /frame-ancestors ([^;]+)/.exec(res.headers.get('content-security-policy') ?? '')![1];
  };
  const frameCheck = async (token: string, origin: string) =>
    (await api.get(`/api/public/embed/${token}/frame-check?origin=${encodeURIComponent(origin)}`, null)).json;

  it('a draft takes origins by PATCH: sanitised, dropped ones answered as warnings, audited with before and after; the counter stays', async () => {
    const def = await api.create(t.asOwner);
    expect(def.allowedEmbedOrigins).toEqual([]);
    const r = await patch(def.id, { allowedEmbedOrigins: ['https://shop.example', 'http://plain.example', 'https://shop.example', 'http://localhost:5173'] });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ id: def.id, status: 'DRAFT', version: def.version, allowedEmbedOrigins: ['https://shop.example', 'http://localhost:5173'] });
    expect(r.json.problems).toEqual([
      expect.objectContaining({ path: 'allowedEmbedOrigins.1', level: 'warning', message: expect.stringContaining('http://plain.example') }),
    ]);
    expect((await api.read(t.asOwner, def.id)).allowedEmbedOrigins).toEqual(['https://shop.example', 'http://localhost:5173']);
    // The same list again writes nothing.
    expect((await patch(def.id, { allowedEmbedOrigins: ['https://shop.example', 'http://localhost:5173'] })).status).toBe(200);
    const trail = (await api.audit(t.asOwner, def.id)).filter((e) => e.action === 'embed_origins_set');
    expect(trail).toEqual([expect.objectContaining({ actor: t.owner, detail: { from: [], to: ['https://shop.example', 'http://localhost:5173'] } })]);
  });

  it('a published form: the embed page and the frame check follow the PATCH at once; [] frames it for nobody', async () => {
    const form = await publishedForm(ctx, t.asOwner);
    expect(await frameAncestors(form.token)).toBe("'none'");
    expect(await frameCheck(form.token, 'https://shop.example')).toEqual({ allowed: false, reason: 'origin-not-allowed' });
    const r = await patch(form.def.id, { allowedEmbedOrigins: ['https://shop.example'] });
    expect(r.status, r.text).toBe(200);
    expect(r.json.status).toBe('PUBLISHED');
    expect(await frameAncestors(form.token)).toBe('https://shop.example');
    expect(await frameCheck(form.token, 'https://shop.example')).toEqual({ allowed: true });
    expect((await patch(form.def.id, { allowedEmbedOrigins: [] })).json.allowedEmbedOrigins).toEqual([]);
    expect(await frameAncestors(form.token)).toBe("'none'");
  });

  it('a name and origins in one PATCH: both applied, each audited; a rename alone still works', async () => {
    const def = await api.create(t.asOwner);
    const r = await patch(def.id, { name: 'Shop contact', allowedEmbedOrigins: ['https://shop.example'] });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ name: 'Shop contact', allowedEmbedOrigins: ['https://shop.example'] });
    expect((await api.audit(t.asOwner, def.id)).map((e) => e.action)).toEqual(['created', 'renamed', 'embed_origins_set']);
    expect((await patch(def.id, { name: 'Renamed' })).json).toMatchObject({ name: 'Renamed', allowedEmbedOrigins: ['https://shop.example'] });
  });

  it('400 for what is not an origin, an unknown key, or nothing to change', async () => {
    const def = await api.create(t.asOwner);
    for (const body of [{ allowedEmbedOrigins: ['shop.example'] }, { allowedEmbedOrigins: 'https://shop.example' }, { allowedEmbedOrigins: ['https://a.example/path'] }, { origins: [] }, {}]) {
      const r = await patch(def.id, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    expect((await api.read(t.asOwner, def.id)).allowedEmbedOrigins).toEqual([]);
  });

  it("403 without read-write; another tenant's or a deleted definition is a 404", async () => {
    const def = await api.create(t.asOwner);
    const reader = await patch(def.id, { allowedEmbedOrigins: ['https://shop.example'] }, { user: 'reader', tenant: t.id });
    expect(reader.status).toBe(403);
    const foreign = await patch(def.id, { allowedEmbedOrigins: ['https://shop.example'] }, other.asOwner);
    expect(foreign.status).toBe(404);
    expect(foreign.json.code).toBe('definition-not-found');
    const gone = await api.create(t.asOwner);
    expect((await api.del(`${BASE}/${gone.id}`, t.asOwner)).status).toBe(204);
    expect((await patch(gone.id, { allowedEmbedOrigins: ['https://shop.example'] })).status).toBe(404);
    expect((await api.read(t.asOwner, def.id)).allowedEmbedOrigins).toEqual([]);
  });

  it('parallel PATCHes are applied one after another: the trail chains each change from the one before (three rounds)', async () => {
    for (let round = 0; round < 3; round++) {
      const def = await api.create(t.asOwner);
      const lists = Array.from({ length: 6 }, (_, i) => [`https://site${i}.example`]);
      const answers = await Promise.all(lists.map((l) => patch(def.id, { allowedEmbedOrigins: l })));
      expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
      const trail = (await api.audit(t.asOwner, def.id)).filter((e) => e.action === 'embed_origins_set').map((e) => e.detail as { from: string[]; to: string[] });
      expect(trail).toHaveLength(6);
      trail.forEach((step, i) => expect(step.from).toEqual(i === 0 ? [] : trail[i - 1]!.to));
      expect((await api.read(t.asOwner, def.id)).allowedEmbedOrigins).toEqual(trail.at(-1)!.to);
    }
  });

  it('a clone is framed by nobody unless it asks for the origins (copyEmbedOrigins)', async () => {
    const source = await api.create(t.asOwner, { draftSchema: VALID_DRAFT, allowedEmbedOrigins: ['https://shop.example'] });
    expect((await api.checkIn(t.asOwner, source.id)).status).toBe(201);
    const plain = await api.step(t.asOwner, source.id, 'clone');
    expect(plain.status, plain.text).toBe(201);
    expect(plain.json.allowedEmbedOrigins).toEqual([]);
    const asked = await api.step(t.asOwner, source.id, 'clone', { copyEmbedOrigins: true, name: 'With origins' });
    expect(asked.status, asked.text).toBe(201);
    expect(asked.json).toMatchObject({ name: 'With origins', allowedEmbedOrigins: ['https://shop.example'] });
    expect((await api.step(t.asOwner, source.id, 'clone', { copyEmbedOrigins: 'yes' })).status).toBe(400);
  });
});
