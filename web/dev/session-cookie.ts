// The development sign-in's session: who signed in, in a cookie the gateway signs with an HMAC
// so a browser cannot name someone else by editing it. Development only (web/dev/dev-gateway.ts).
import { createHmac } from 'node:crypto';
import { isMacEncoding } from '../../domain/mac-encoding';
import type { RequestUser } from '../../api/middleware/identity-fields';

export const SESSION_COOKIE = 'platform_dev_session';
/** A session is believed this long after sign-in, like a working day. */
export const SESSION_MAX_AGE_SECONDS = 12 * 3600;

interface SessionPayload {
  u: string;
  n?: string;
  e?: string;
  /** Signed in at, epoch seconds. */
  iat: number;
}

const mac = (secret: Buffer, payload: string) => createHmac('sha256', secret).update(payload).digest();

/** The cookie value for `user`, signed in at `now`. */
export function sealSession(secret: Buffer, user: RequestUser, now = new Date()): string {
  const payload: SessionPayload = { u: user.userId, n: user.name, e: user.email, iat: Math.floor(now.getTime() / 1000) };
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

/** The user of a cookie value the gateway signed and that has not aged out; undefined otherwise. */
export function openSession(secret: Buffer, value: string | undefined, now = new Date()): RequestUser | undefined {
  if (!value || value.length > 4096) return undefined;
  const [body, tag, extra] = value.split('.');
  if (!body || !tag || extra !== undefined) return undefined;
  if (!isMacEncoding(tag, mac(secret, body))) return undefined;
  let payload: SessionPayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SessionPayload;
  } catch {
    return undefined;
  }
  const age = Math.floor(now.getTime() / 1000) - payload.iat;
  if (typeof payload.u !== 'string' || !Number.isInteger(payload.iat) || age < 0 || age > SESSION_MAX_AGE_SECONDS) return undefined;
  return { userId: payload.u, name: payload.n, email: payload.e };
}

/** The `Cookie` header without the session cookie, so it never travels further than the gateway. */
export function withoutSessionCookie(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const kept = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '' && !part.startsWith(`${SESSION_COOKIE}=`));
  return kept.length > 0 ? kept.join('; ') : undefined;
}
