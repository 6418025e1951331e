// The console's defence against cross-site requests, two layers on every POST:
// 1. Where the request came from: a browser's `Sec-Fetch-Site` must say `same-origin`; a browser
//    too old to send it must send an `Origin` whose host is this request's host.
// 2. A per-session token: a random value in an HttpOnly, SameSite=Strict cookie (Path=/console),
//    and in every form an HMAC of the signed-in user under that value. Another site can neither
//    read the cookie nor compute the field, and a token issued to one user is void for another.
import { createHmac, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { isMacEncoding } from '../../domain/mac-encoding';
import type { ConsoleEnv } from './env';

export const CSRF_COOKIE = 'console_session';
export const CSRF_FIELD = '_csrf';

const macFor = (session: string, userId: string) => createHmac('sha256', session).update(`console-csrf\u0000${userId}`).digest();

const isHttps = (c: Context) => c.req.header('X-Forwarded-Proto') === 'https' || new URL(c.req.url).protocol === 'https:';

/** The session value of this browser, set when it has none (or a malformed one). */
function sessionOf(c: Context<ConsoleEnv>): string {
  const held = getCookie(c, CSRF_COOKIE);
  if (held && /^[A-Za-z0-9_-]{43}$/.test(held)) return held;
  const fresh = randomBytes(32).toString('base64url');
  setCookie(c, CSRF_COOKIE, fresh, { path: '/console', httpOnly: true, sameSite: 'Strict', secure: isHttps(c) });
  return fresh;
}

/** The token this page's forms carry (the cookie is set on the response when the browser had none). */
export function issueCsrfToken(c: Context<ConsoleEnv>, userId: string): string {
  return macFor(sessionOf(c), userId).toString('base64url');
}

/** Why a POST is refused as cross-site, or null when it may proceed. */
export function crossSiteRefusal(c: Context<ConsoleEnv>): string | null {
  const site = c.req.header('Sec-Fetch-Site');
  if (site !== undefined) {
    if (site !== 'same-origin') return `Sec-Fetch-Site is ${site}`;
  } else {
    const origin = c.req.header('Origin');
    const host = c.req.header('X-Forwarded-Host') ?? c.req.header('Host');
    if (origin !== undefined && (origin === 'null' || safeHost(origin) !== host)) return 'Origin is another site';
  }
  return null;
}

const safeHost = (origin: string) => {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
};

/** Whether the form's token is the one this browser's session issued to this user. */
export function csrfTokenMatches(c: Context<ConsoleEnv>, userId: string, sent: unknown): boolean {
  const session = getCookie(c, CSRF_COOKIE);
  if (!session || typeof sent !== 'string') return false;
  return isMacEncoding(sent, macFor(session, userId));
}
