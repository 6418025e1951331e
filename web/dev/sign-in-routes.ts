// GET/POST /dev/sign-in and POST /dev/sign-out of the development gateway (web/dev/dev-gateway.ts).
// The session is an HttpOnly, SameSite=Lax cookie signed by the gateway; a form posted from
// another origin is refused, so no other site can sign a browser in or out.
import type { Context } from 'hono';
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { USER_EMAIL, USER_NAME, type RequestUser } from '../../api/middleware/identity-fields';
import { USER_ID } from '../../api/openapi';
import { newNonce, setPageHeaders } from '../hosted/page';
import { openSession, sealSession, SESSION_COOKIE } from './session-cookie';
import { signInPage, type SignInView } from './sign-in-page';

/** Where a signed-in browser goes: the console (web/console), whoever serves it. */
export const AFTER_SIGN_IN = '/console';
export const SIGN_IN_PATH = '/dev/sign-in';

const FRAME_ANCESTORS = "frame-ancestors 'none'";

function render(c: Context, view: Omit<SignInView, 'nonce'>, status: 200 | 400 | 403 = 200) {
  const nonce = newNonce();
  setPageHeaders(c, nonce, FRAME_ANCESTORS);
  return c.html(signInPage({ ...view, nonce }), status);
}

/** A browser's form post names its origin; one from another origin is refused (no Origin: a non-browser client). */
function crossSite(c: Context): boolean {
  const origin = c.req.header('Origin');
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== (c.req.header('Host') ?? new URL(c.req.url).host);
  } catch {
    return true;
  }
}

const field = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The user the form names, or why it cannot be. */
function userFrom(form: Record<string, unknown>): { user?: RequestUser; error?: string } {
  const userId = field(form['userId']);
  const name = field(form['name']);
  const email = field(form['email']);
  if (!USER_ID.test(userId)) return { error: 'Enter a user id: 1 to 200 printable characters without spaces.' };
  if (name !== '' && !USER_NAME.test(name)) return { error: 'The name must be at most 200 characters on one line.' };
  if (email !== '' && !USER_EMAIL.test(email)) return { error: 'Enter an e-mail address like ada@example.com, or leave it empty.' };
  return { user: { userId, name: name || undefined, email: email || undefined } };
}

export function signInRoutes(secret: Buffer) {
  const app = new Hono();
  const current = (c: Context) => openSession(secret, getCookie(c, SESSION_COOKIE));

  app.get(SIGN_IN_PATH, (c) => render(c, { current: current(c) }));

  app.post(SIGN_IN_PATH, async (c) => {
    if (crossSite(c)) return render(c, { error: 'A sign-in posted from another site was refused.' }, 403);
    const form = await c.req.parseBody();
    const { user, error } = userFrom(form);
    if (!user) return render(c, { error, values: { userId: field(form['userId']), name: field(form['name']), email: field(form['email']) } }, 400);
    // No Max-Age: the cookie ends with the browser session; the seal itself ages out after 12 hours.
    setCookie(c, SESSION_COOKIE, sealSession(secret, user), { path: '/', httpOnly: true, sameSite: 'Lax' });
    c.header('Cache-Control', 'no-store');
    return c.redirect(AFTER_SIGN_IN, 303);
  });

  app.post('/dev/sign-out', (c) => {
    if (crossSite(c)) return render(c, { error: 'A sign-out posted from another site was refused.' }, 403);
    deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax' });
    c.header('Cache-Control', 'no-store');
    return c.redirect(SIGN_IN_PATH, 303);
  });

  return app;
}
