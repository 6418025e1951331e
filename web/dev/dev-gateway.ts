// `npm start`'s development gateway: it stands in front of the API as an identity-aware proxy
// would in production (docs/identity.md), serving the development sign-in and turning its
// session cookie into the identity headers of `auth.mode=header` for the browser's requests.
// A request that names its own X-User-Id (curl, the walkthrough) passes through untouched.
// Mounted by workers/dev.ts only: createApp and `npm run start:api` never load this folder.
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { proxy } from 'hono/proxy';
import { openSession, SESSION_COOKIE, withoutSessionCookie } from './session-cookie';
import { signInRoutes } from './sign-in-routes';

export interface DevGatewayOptions {
  /** Signs the session cookie. */
  secret: Buffer;
  /** Where requests go on: the API node's origin (`http://127.0.0.1:<port>`). */
  upstream: string;
  /** How they get there; `fetch` unless a test hands its app's own. */
  fetch?: (request: Request) => Promise<Response>;
}

/** The session secret of a development stack, derived from its internal key so sessions survive restarts. */
export function devSessionSecret(internalKey: string): Buffer {
  return createHmac('sha256', internalKey).update('development sign-in session v1').digest();
}

const UNFORWARDABLE = new Set(['TRACE', 'TRACK', 'CONNECT']);

export function createDevGateway(options: DevGatewayOptions) {
  const app = new Hono();
  app.route('/', signInRoutes(options.secret));
  app.all('*', async (c) => {
    // fetch cannot send these methods at all; the API serves none of them either. A 405 says so,
    // where passing them on would end in the 502 below (found by the fuzzer's TRACE requests).
    if (UNFORWARDABLE.has(c.req.method)) {
      return c.body(
        JSON.stringify({ type: 'about:blank', title: 'Method Not Allowed', status: 405, detail: `The development gateway does not forward ${c.req.method} requests` }),
        405,
        { 'Content-Type': 'application/problem+json' },
      );
    }
    const headers = new Headers(c.req.raw.headers);
    // curl announces large uploads with Expect: 100-continue, which fetch refuses to forward.
    headers.delete('expect');
    const session = c.req.header('X-User-Id') ? undefined : openSession(options.secret, getCookie(c, SESSION_COOKIE));
    if (session) {
      headers.set('X-User-Id', session.userId);
      // The session speaks for the user entirely: nothing the browser sent mixes into it.
      headers.delete('X-User-Name');
      headers.delete('X-User-Email');
      if (session.name) headers.set('X-User-Name', session.name);
      if (session.email) headers.set('X-User-Email', session.email);
    }
    const cookies = withoutSessionCookie(c.req.header('Cookie'));
    if (cookies) headers.set('Cookie', cookies);
    else headers.delete('Cookie');
    const url = new URL(c.req.url);
    try {
      return await proxy(`${options.upstream}${url.pathname}${url.search}`, { raw: c.req.raw, headers, customFetch: options.fetch });
    } catch {
      // The API role is restarting (the supervisor brings it back): say so rather than fail obscurely.
      return c.body(
        JSON.stringify({ type: 'about:blank', title: 'Bad Gateway', status: 502, detail: 'The API is not answering; it may be restarting' }),
        502,
        { 'Content-Type': 'application/problem+json' },
      );
    }
  });
  return app;
}

export interface RunningGateway {
  port: number;
  close(): Promise<void>;
}

/** Serves the gateway on `port`; resolves once bound. */
export function startDevGateway(options: DevGatewayOptions, port: number, hostname = '0.0.0.0'): Promise<RunningGateway> {
  const app = createDevGateway(options);
  return new Promise((resolve, reject) => {
    const server: ServerType = serve({ fetch: app.fetch, port, hostname }, (info: AddressInfo) => {
      resolve({
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
          }),
      });
    });
    server.once('error', reject);
  });
}
