// The development sign-in (docs/identity.md): `npm start`'s gateway in front of the app turns a
// signed session cookie into the identity headers of header mode; curl's own X-User-Id passes.
// Nothing but workers/dev.ts mounts it.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../api/server';
import { request } from 'node:http';
import { createDevGateway, startDevGateway, type RunningGateway } from '../../../web/dev/dev-gateway';
import { SESSION_COOKIE } from '../../../web/dev/session-cookie';
import { useTestApp } from '../../support/app';
import { moduleImports } from '../../support/layer-rule';

const ROOT = resolve(import.meta.dirname, '../../..');
const ORIGIN = 'http://localhost:3000';

describe('development sign-in through the development gateway', () => {
  const ctx = useTestApp();
  const upstreamCookies: (string | null)[] = [];
  let gateway: ReturnType<typeof createDevGateway>;

  beforeAll(() => {
    gateway = createDevGateway({
      secret: randomBytes(32),
      upstream: 'http://api.internal',
      fetch: async (request) => {
        upstreamCookies.push(request.headers.get('cookie'));
        return ctx.app.request(request);
      },
    });
  });

  const send = (path: string, init: RequestInit = {}) => gateway.request(`${ORIGIN}${path}`, { redirect: 'manual', ...init });
  const signIn = (fields: Record<string, string>, headers: Record<string, string> = { Origin: ORIGIN }) =>
    send('/dev/sign-in', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });
  const sessionOf = (res: Response) => /^platform_dev_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];

  it('serves the sign-in page with its development-only banner, no-store and a CSP', async () => {
    const res = await send('/dev/sign-in');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const page = await res.text();
    expect(page).toContain('Development only');
    expect(page).toMatch(/<label for="userId">User id<\/label>/);
  });

  it('signs in: a 303 to the console with an HttpOnly, SameSite=Lax session cookie; the cookie identifies the browser; sign-out clears it', async () => {
    const res = await signIn({ userId: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console');
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^platform_dev_session=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Lax$/);
    const cookie = `${SESSION_COOKIE}=${sessionOf(res)}; theme=dark`;

    const created = await send('/api/tenants', {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json', 'X-User-Name': 'Spoofed Name' },
      body: JSON.stringify({ id: 'lovelace', name: 'Lovelace' }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    expect((await created.json()).createdBy).toBe('ada');
    const members = await send('/api/tenants/lovelace/members', { headers: { Cookie: cookie, 'X-Tenant-Id': 'lovelace' } });
    expect(await members.json()).toEqual([expect.objectContaining({ userId: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' })]);
    // The session cookie stays at the gateway; the others travel on.
    expect(upstreamCookies.at(-1)).toBe('theme=dark');

    const page = await (await send('/dev/sign-in', { headers: { Cookie: cookie } })).text();
    expect(page).toContain('Signed in as ada');

    const out = await send('/dev/sign-out', { method: 'POST', headers: { Cookie: cookie, Origin: ORIGIN } });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/dev/sign-in');
    expect(out.headers.get('set-cookie')).toMatch(/^platform_dev_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax/);
  });

  it('a request naming its own X-User-Id passes unchanged, cookie or not (curl keeps working)', async () => {
    const cookie = `${SESSION_COOKIE}=${sessionOf(await signIn({ userId: 'ada' }))}`;
    const res = await send('/api/tenants', {
      method: 'POST',
      headers: { Cookie: cookie, 'X-User-Id': 'bob', 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: 'bobs', name: 'Bob' }),
    });
    expect((await res.json()).createdBy).toBe('bob');
    const curl = await send('/api/capabilities', { headers: { 'X-User-Id': 'carol' } });
    expect(curl.status).toBe(200);
  });

  it('a tampered or foreign cookie is no identity', async () => {
    const value = sessionOf(await signIn({ userId: 'ada' }))!;
    const [body, tag] = value.split('.');
    const forged = Buffer.from(JSON.stringify({ u: 'root', iat: Math.floor(Date.now() / 1000) })).toString('base64url');
    for (const bad of [`${forged}.${tag}`, `${body}.${'A'.repeat(43)}`, 'garbage']) {
      const res = await send('/api/capabilities', { headers: { Cookie: `${SESSION_COOKIE}=${bad}` } });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'missing-header', header: 'X-User-Id' });
    }
  });

  it('refuses an unusable form with a message and a cross-site post, setting no cookie', async () => {
    const bad = await signIn({ userId: 'has space' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Enter a user id');
    expect(bad.headers.get('set-cookie')).toBeNull();
    const badEmail = await signIn({ userId: 'ada', email: 'not-an-address' });
    expect(badEmail.status).toBe(400);
    expect(badEmail.headers.get('set-cookie')).toBeNull();
    const cross = await signIn({ userId: 'ada' }, { Origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    expect(cross.headers.get('set-cookie')).toBeNull();
  });

  it('is not part of the app: createApp answers 404 on /dev/sign-in', async () => {
    expect((await ctx.app.request('/dev/sign-in')).status).toBe(404);
  });

  describe('over real sockets, as workers/dev.ts runs it', () => {
    let api: RunningServer;
    let served: RunningGateway;
    beforeAll(async () => {
      api = await startServer(ctx.deps, 0, '127.0.0.1');
      served = await startDevGateway({ secret: randomBytes(32), upstream: `http://127.0.0.1:${api.port}` }, 0, '127.0.0.1');
    });
    afterAll(async () => {
      await served?.close();
      await api?.close();
    });

    it('signs in and identifies the next request through the proxy', async () => {
      const base = `http://127.0.0.1:${served.port}`;
      const res = await fetch(`${base}/dev/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base },
        body: 'userId=grace',
      });
      expect(res.status).toBe(303);
      const caps = await fetch(`${base}/api/capabilities`, { headers: { Cookie: `${SESSION_COOKIE}=${sessionOf(res)}` } });
      expect(caps.status).toBe(200);
      expect(Array.isArray(await caps.json())).toBe(true);
    });

    it('answers a method fetch cannot forward (TRACE) with a 405 problem, never a 5xx', async () => {
      const answer = await new Promise<{ status: number; type: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: served.port, path: '/api/capabilities', method: 'TRACE' }, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']) });
        });
        req.on('error', reject);
        req.end();
      });
      expect(answer).toEqual({ status: 405, type: 'application/problem+json' });
    });
  });
});

/** The files a file imports (relative specifiers resolved), parsed once per file for all three walks. */
const importsOf = new Map<string, string[]>();
function localImports(file: string): string[] {
  let found = importsOf.get(file);
  if (!found) {
    found = moduleImports(file, readFileSync(join(ROOT, file), 'utf8'))
      .filter(({ specifier }) => specifier.startsWith('.'))
      .map(({ specifier }) => join(dirname(file), specifier))
      .flatMap((base) => [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].filter((c) => /\.tsx?$/.test(c) && existsSync(join(ROOT, c))).slice(0, 1));
    importsOf.set(file, found);
  }
  return found;
}

/** Every production file reachable from `entry` by static and dynamic imports. */
function reachableFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    pending.push(...localImports(file));
  }
  return seen;
}

describe('only npm start mounts the development gateway', () => {
  it('workers/dev.ts reaches web/dev; npm run start:api (workers/api.ts) and createApp never do', () => {
    const inDev = (files: Set<string>) => [...files].filter((f) => f.startsWith('web/dev/'));
    expect(inDev(reachableFrom('workers/dev.ts'))).toContain('web/dev/dev-gateway.ts');
    expect(inDev(reachableFrom('workers/api.ts'))).toEqual([]);
    expect(inDev(reachableFrom('api/app.ts'))).toEqual([]);
  });
});
