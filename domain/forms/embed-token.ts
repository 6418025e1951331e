/**
 * The form embed token (spec rule 3, Versioning 3): `base64url(payload).base64url(HMAC-SHA256)`
 * over the payload { tenant, definition id, embedKeyVersion }. Compact and JWT-like without a
 * header: there is one algorithm and one key, so nothing in the token may choose them. Rotation
 * bumps the definition's embedKeyVersion; a token naming an older one is refused by its reader.
 */
import { createHmac } from 'node:crypto';
import { isMacEncoding } from '../mac-encoding';

export interface EmbedTokenPayload {
  tenantId: string;
  definitionId: string;
  embedKeyVersion: number;
}

/** Far above any real token (ids are a tenant slug and a UUID); longer input is refused unread. */
export const MAX_EMBED_TOKEN_LENGTH = 512;
/** What signEmbedToken writes: two base64url parts. */
export const EMBED_TOKEN_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

const mac = (key: string, body: string) => createHmac('sha256', key).update(`form-embed.${body}`).digest();

export function signEmbedToken(key: string, p: EmbedTokenPayload): string {
  const body = Buffer.from(JSON.stringify({ t: p.tenantId, d: p.definitionId, k: p.embedKeyVersion }), 'utf8').toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

/** The payload of a token this key signed, or null; the signature, exactly as signed, is compared in constant time. */
export function verifyEmbedToken(key: string, token: string): EmbedTokenPayload | null {
  if (token.length > MAX_EMBED_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 2) return null;
  const [body, sig] = parts as [string, string];
  if (!isMacEncoding(sig, mac(key, body))) return null;
  try {
    const raw = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { t, d, k } = raw;
    if (typeof t !== 'string' || typeof d !== 'string' || typeof k !== 'number' || !Number.isInteger(k)) return null;
    return { tenantId: t, definitionId: d, embedKeyVersion: k };
  } catch {
    return null;
  }
}
