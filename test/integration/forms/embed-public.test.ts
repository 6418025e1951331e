import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { formsApi, seedFormsTenant } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';

describe('embed tokens and the public embed API', () => {
  const ctx = useTestApp({ 'forms.embed-key': EMBED_KEY, 'public.base-url': 'https://forms.example.com' });
  const api = formsApi(ctx);
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
  });
  const render = (token: string) => client(ctx).get(`/api/public/embed/${token}`, null);
  const submit = (token: string, body: unknown) => client(ctx).post(`/api/public/embed/${token}/submit`, null, body);

  it('issues a signed token with embedKeyVersion and embedUrl; the public route renders the published version', async () => {
    const { def, token, tokenResponse } = await publishedForm(ctx, t.asOwner);
    expect(tokenResponse.json).toMatchObject({ embedKeyVersion: 1, embedUrl: `https://forms.example.com/embed/${token}` });
    const r = await render(token);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ code: def.code, version: 1, title: 'Contact' });
    expect(r.json.schema.fields).toHaveLength(2);
  });

  it('reader may fetch the token, but rotation needs read-write; rotate revokes every earlier token (404 after)', async () => {
    const { def, token } = await publishedForm(ctx, t.asOwner);
    const reader = { user: 'reader', tenant: t.id };
    expect((await api.get(`/api/form-definitions/${def.id}/embed-token`, reader)).status).toBe(200);
    expect((await api.post(`/api/form-definitions/${def.id}/embed-token/rotate`, reader)).status).toBe(403);
    const rotated = await api.post(`/api/form-definitions/${def.id}/embed-token/rotate`, t.asOwner);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.json.embedKeyVersion).toBe(2);
    expect((await render(token)).status).toBe(404);
    expect((await submit(token, { data: { email: 'a@example.com' } })).status).toBe(404);
    expect((await render(rotated.json.token)).status).toBe(200);
    const audit = await api.get(`/api/form-definitions/${def.id}/audit`, t.asOwner);
    expect(audit.json.items[0]).toMatchObject({ action: 'embed_token_rotated', actor: t.asOwner.user, detail: { embedKeyVersion: 2 } });
  });

  it('every public refusal is the same 404: unknown, badly signed, rotated, unpublished, retired, deleted, outbound', async () => {
    const bodies: string[] = [];
    const { def: published, token: good } = await publishedForm(ctx, t.asOwner);
    const [body, sig] = good.split('.');
    // Badly signed: the signature's first character changed (its last ones could already read "AA").
    const tampered = `${sig![0] === 'A' ? 'B' : 'A'}${sig!.slice(1)}`;
    const cases: string[] = ['nope', `${body}.${tampered}`, `${body}x.${sig}`];
    // rotated
    const rot = await publishedForm(ctx, t.asOwner);
    await api.post(`/api/form-definitions/${rot.def.id}/embed-token/rotate`, t.asOwner);
    cases.push(rot.token);
    // unpublished (DRAFT)
    const draft = await api.create(t.asOwner);
    cases.push((await api.get(`/api/form-definitions/${draft.id}/embed-token`, t.asOwner)).json.token);
    // retired
    const ret = await publishedForm(ctx, t.asOwner);
    expect((await api.step(t.asOwner, ret.def.id, 'retire')).status).toBe(200);
    cases.push(ret.token);
    // deleted
    const del = await publishedForm(ctx, t.asOwner);
    expect((await api.del(`/api/form-definitions/${del.def.id}`, t.asOwner)).status).toBeLessThan(300);
    cases.push(del.token);
    for (const token of cases) {
      const r = await render(token);
      expect(r.status, token).toBe(404);
      bodies.push(JSON.stringify({ ...r.json, requestId: undefined }));
      const s = await submit(token, { data: { email: 'a@example.com' } });
      expect(s.status, token).toBe(404);
      bodies.push(JSON.stringify({ ...s.json, requestId: undefined }));
    }
    expect(new Set(bodies).size).toBe(1);
    expect((await render(good)).status).toBe(200);
    void published;
  });

  it('outbound definitions have no embed token (404)', async () => {
    const out = await api.create(t.asOwner, { kind: 'OUTBOUND' });
    const r = await api.get(`/api/form-definitions/${out.id}/embed-token`, t.asOwner);
    expect(r.status).toBe(404);
    expect((await api.post(`/api/form-definitions/${out.id}/embed-token/rotate`, t.asOwner)).status).toBe(404);
  });

  it('another tenant cannot fetch or rotate the token (404)', async () => {
    const { def } = await publishedForm(ctx, t.asOwner);
    const other = await seedFormsTenant(ctx);
    expect((await api.get(`/api/form-definitions/${def.id}/embed-token`, other.asOwner)).status).toBe(404);
    expect((await api.post(`/api/form-definitions/${def.id}/embed-token/rotate`, other.asOwner)).status).toBe(404);
  });
});

describe('embed tokens without forms.embed-key', () => {
  const ctx = useTestApp();
  it('answers 503 embed-key-missing', async () => {
    const t = await seedFormsTenant(ctx);
    const def = await formsApi(ctx).create(t.asOwner);
    const r = await formsApi(ctx).get(`/api/form-definitions/${def.id}/embed-token`, t.asOwner);
    expect(r.status).toBe(503);
    expect(r.json.code).toBe('embed-key-missing');
  });
});
