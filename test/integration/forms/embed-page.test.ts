// The hosted embed page over the app: the markup of every field type, its headers (CSP with a
// per-response nonce and frame-ancestors from the sanitised origins), the one 404 page, the
// content-hashed form script, the SDK and its frame check, and the icon every page asks for.
import { beforeAll, describe, expect, it } from 'vitest';
import { signEmbedToken } from '../../../domain/forms/embed-token';
import { client, useTestApp } from '../../support/app';
import { ALL_TYPES_DRAFT } from '../../support/embed-forms';
import { formsApi, seedFormsTenant, VALID_DRAFT } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';

describe('hosted embed page GET /embed/{token}', () => {
  const ctx = useTestApp({ 'forms.embed-key': EMBED_KEY });
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let token: string;
  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    token = (await publishedForm(ctx, t.asOwner, { draftSchema: ALL_TYPES_DRAFT, allowedEmbedOrigins: ['https://shop.example', 'http://localhost:5173'] })).token;
  });
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await ctx.app.request(path, { headers });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const csp = (h: Headers) => Object.fromEntries(h.get('content-security-policy')!.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));

  it('answers the form with a nonce policy, frame-ancestors from the origins, nosniff and no referrer', async () => {
    const page = await get(`/embed/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = csp(page.headers);
    const nonce = /^'nonce-([A-Za-z0-9_-]{20,})'$/.exec(policy['script-src']!)![1]!;
    expect(policy).toMatchObject({
      'default-src': "'none'",
      'style-src': `'nonce-${nonce}'`,
      'connect-src': "'self'",
      'base-uri': "'none'",
      'frame-ancestors': 'https://shop.example http://localhost:5173',
    });
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    // Every executable script carries the nonce; nothing inline can run.
    const scripts = [...page.text.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts.filter((a) => !a.includes('type="application/json"'))).toEqual([` nonce="${nonce}" src="${scripts.at(-1)!.match(/src="([^"]+)"/)![1]}"`]);
    expect(page.text).not.toMatch(/\son[a-z]+\s*=/i);
    expect(page.text).not.toMatch(/javascript:/i);
    const again = await get(`/embed/${token}`);
    expect(csp(again.headers)['script-src']).not.toBe(policy['script-src']);
  });

  it('renders every field type accessibly: label for each control, help and error by aria-describedby, groups as fieldsets', async () => {
    const { text } = await get(`/embed/${token}`);
    for (const key of ['name', 'notes', 'email', 'phone', 'age', 'born', 'color']) {
      expect(text).toContain(`<label for="f-${key}">`);
      expect(text).toMatch(new RegExp(`id="f-${key}"[^>]*aria-describedby="[^"]*f-${key}-error`));
      expect(text).toContain(`<p class="error" id="f-${key}-error" hidden></p>`);
    }
    expect(text).toMatch(/<input type="text" id="f-name" name="name" value="" aria-describedby="f-name-help f-name-error" required/);
    expect(text).toContain('<p class="help" id="f-name-help">As on your ID</p>');
    expect(text).toMatch(/<textarea id="f-notes"/);
    expect(text).toMatch(/<input type="email" id="f-email"[^>]*autocomplete="email"/);
    expect(text).toMatch(/<input type="number" id="f-age"[^>]*inputmode="numeric" step="1"/);
    expect(text).toMatch(/<input type="date" id="f-born"/);
    expect(text).toMatch(/<select id="f-color" name="color"[^>]*>\s*<option value="">Choose…<\/option>\s*<option value="red" >Red<\/option>/);
    expect(text).toMatch(/<fieldset id="f-size" aria-describedby="f-size-error"><legend>Size<span class="required"> \(required\)<\/span><\/legend>/);
    expect(text).toContain('<input type="radio" id="f-size-1" name="size" value="l" ><label for="f-size-1">Large</label>');
    expect(text).toContain('<input type="checkbox" id="f-tags-0" name="tags" value="a" ><label for="f-tags-0">Alpha</label>');
    expect(text).toMatch(/<input type="checkbox" id="f-agree" name="agree" value="true"/);
    // The file input is named by its field label alone; the visible "Choose files" label is the button, hidden from assistive technology.
    expect(text).toContain('<label for="f-proof" id="f-proof-label">Proof</label>');
    expect(text).toMatch(
      /<input type="file" class="file-input" id="f-proof" name="proof" multiple data-max-items="2" aria-labelledby="f-proof-label" aria-describedby="f-proof-error f-proof-status"><label for="f-proof" class="file-button" aria-hidden="true">Choose files<\/label>/,
    );
    expect(text).toContain('<p class="files-label" id="f-proof-files-label" hidden>Uploaded files</p><ul class="files" id="f-proof-files" aria-labelledby="f-proof-files-label"></ul>');
    expect(text).toContain('<input type="hidden" id="f-source" name="source" value="" data-field="source">');
    expect(text).toContain('<section class="content" data-field="intro" ><h2>Before you start</h2><p>It takes two minutes.</p></section>');
    // A field behind visibleIf starts hidden; the error summary is a focusable alert.
    expect(text).toMatch(/<div class="field" data-field="size_note" data-type="text" hidden>/);
    expect(text).toContain('<div id="error-summary" class="error-summary" role="alert" tabindex="-1" hidden>');
    // Schema text is escaped, in the markup and in the page data.
    expect(text).toContain('Your &lt;script&gt;name&lt;/script&gt;');
    expect(text).toContain('<h1 id="form-title" tabindex="-1">Every field &lt;b&gt;type&lt;/b&gt;</h1>');
    // The thank-you block's heading is an h1 too: once the form is hidden it is the page's one h1.
    expect(text).toContain('<div id="done" class="done" tabindex="-1" hidden><h1>Thank you</h1>');
    expect(text).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    expect(text).not.toContain('<script>name');
    const data = text.match(/<script type="application\/json" id="page-data">(.*?)<\/script>/s)![1]!;
    expect(data).not.toMatch(/<\/?script/i);
    expect(JSON.parse(data)).toMatchObject({ token, allowedOrigins: ['https://shop.example', 'http://localhost:5173'], documentsUrl: '/api/public/documents' });
  });

  it("frame-ancestors is 'none' without origins, and a dropped origin is answered as a warning at create", async () => {
    const none = await publishedForm(ctx, t.asOwner);
    expect(csp((await get(`/embed/${none.token}`)).headers)['frame-ancestors']).toBe("'none'");

    const created = await formsApi(ctx).post('/api/form-definitions', t.asOwner, {
      name: 'Origins',
      kind: 'INBOUND',
      draftSchema: VALID_DRAFT,
      allowedEmbedOrigins: ['https://ok.example', 'http://plain.example', 'https://two.example'],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.allowedEmbedOrigins).toEqual(['https://ok.example', 'https://two.example']);
    expect(created.json.problems.filter((p: { path: string }) => p.path.startsWith('allowedEmbedOrigins'))).toEqual([
      expect.objectContaining({ path: 'allowedEmbedOrigins.1', level: 'warning', message: expect.stringContaining('http://plain.example') }),
    ]);
  });

  it('one and the same 404 page for an unknown, forged, rotated, unpublished, retired or outbound token', async () => {
    const api = formsApi(ctx);
    const rotated = await publishedForm(ctx, t.asOwner);
    expect((await api.post(`/api/form-definitions/${rotated.def.id}/embed-token/rotate`, t.asOwner)).status).toBe(200);
    const retired = await publishedForm(ctx, t.asOwner);
    expect((await api.step(t.asOwner, retired.def.id, 'retire')).status).toBe(200);
    const draft = await api.create(t.asOwner);
    const outbound = await publishedForm(ctx, t.asOwner, { kind: 'OUTBOUND' });
    const sign = (definitionId: string) => signEmbedToken(EMBED_KEY, { tenantId: t.id, definitionId, embedKeyVersion: 0 });
    const [payload] = token.split('.');
    const bodies = new Set<string>();
    for (const bad of ['nope', `${payload}.${'A'.repeat(43)}`, rotated.token, retired.token, sign(draft.id), sign(outbound.def.id), 'x'.repeat(5000)]) {
      const page = await get(`/embed/${bad}`);
      expect(page.status, bad).toBe(404);
      expect(csp(page.headers)['frame-ancestors']).toBe("'none'");
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      bodies.add(page.text.replace(/nonce="[^"]+"/g, ''));
    }
    expect(bodies.size).toBe(1);
    expect([...bodies][0]).toContain('This form is not available');
  });

  it('serves the form script under its content hash (immutable, text/javascript) and nothing under another name', async () => {
    const { text } = await get(`/embed/${token}`);
    const src = text.match(/src="(\/hosted\/form\.[0-9a-f]{16}\.js)"/)![1]!;
    const script = await get(src);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    // The server's own validation rules are in it.
    expect(script.text).toContain('must be a date as YYYY-MM-DD');
    expect((await get('/hosted/form.0000000000000000.js')).status).toBe(404);
  });

  it('GET /api/public/embed/{token}/frame-check: allowed or why not, readable from any origin; the one 404 for a token without a form', async () => {
    const check = (t: string, origin: string) => get(`/api/public/embed/${t}/frame-check?origin=${encodeURIComponent(origin)}`, { Origin: origin });
    const allowed = await check(token, 'https://shop.example');
    expect(allowed.status).toBe(200);
    expect(JSON.parse(allowed.text)).toEqual({ allowed: true });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('*');
    // Canonical comparison: a default port is the same origin.
    expect(JSON.parse((await check(token, 'https://shop.example:443')).text)).toEqual({ allowed: true });
    for (const other of ['https://evil.example', 'http://shop.example', 'https://shop.example.evil', 'not an origin']) {
      const refused = await check(token, other);
      expect(refused.status, other).toBe(200);
      expect(JSON.parse(refused.text), other).toEqual({ allowed: false, reason: 'origin-not-allowed' });
    }
    const none = await publishedForm(ctx, t.asOwner);
    expect(JSON.parse((await check(none.token, 'https://shop.example')).text)).toEqual({ allowed: false, reason: 'origin-not-allowed' });

    const missing = await check('nope', 'https://shop.example');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(missing.text).code).toBe('embed-form-not-found');
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    const noOrigin = await get(`/api/public/embed/${token}/frame-check`);
    expect(noOrigin.status).toBe(400);
    expect(noOrigin.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('GET /favicon.ico and /favicon.svg: the platform icon, for every page (no 404 in any browser console)', async () => {
    const ico = await ctx.app.request('/favicon.ico');
    expect(ico.status).toBe(200);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    const bytes = Buffer.from(await ico.arrayBuffer());
    // ICONDIR: reserved 0, type 1 (icon), one image of 32 × 32 at 32 bits per pixel.
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4), bytes[6], bytes[7], bytes.readUInt16LE(12)]).toEqual([0, 1, 1, 32, 32, 32]);
    expect(bytes.length).toBe(6 + 16 + bytes.readUInt32LE(14));
    const svg = await get('/favicon.svg');
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('GET /embed.js: the SDK, cacheable, with an ETag that answers 304', async () => {
    const sdk = await get('/embed.js');
    expect(sdk.status).toBe(200);
    expect(sdk.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(sdk.headers.get('cache-control')).toBe('public, max-age=300');
    expect(sdk.text).toContain('platform-form:submitted');
    expect(sdk.text).toContain('platform-form:error');
    expect(sdk.text).toContain('/frame-check?origin=');
    expect(sdk.text).toContain('allow-scripts allow-forms allow-same-origin');
    const etag = sdk.headers.get('etag')!;
    expect((await get('/embed.js', { 'If-None-Match': etag })).status).toBe(304);
    expect((await client(ctx).get('/embed.js', null)).status).toBe(200);
  });
});
