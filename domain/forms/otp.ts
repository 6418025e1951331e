/**
 * Recipient one-time codes and access tokens (spec FormRecipientOtp, rule 7). A code is 6 digits
 * from a CSPRNG, stored only as SHA-256 over a random salt and the code, and compared in constant
 * time. An access token is 256 random bits; only its SHA-256 is stored (no signing key to manage,
 * and a new verification or an expiry revokes it at once).
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export const OTP_DIGITS = 6;
/** Far above a real access token; longer input is refused unread. */
export const MAX_ACCESS_TOKEN_LENGTH = 128;

export const newCode = (): string => String(randomInt(0, 10 ** OTP_DIGITS)).padStart(OTP_DIGITS, '0');
export const newSalt = (): string => randomBytes(16).toString('base64url');
export const newAccessToken = (): string => randomBytes(32).toString('base64url');

export const hashCode = (code: string, salt: string): string => createHash('sha256').update(`${salt}:${code}`).digest('base64url');
export const hashAccessToken = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** Constant time over the stored hash's length, whatever the given value. */
export function sameHash(given: string, stored: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const codeMatches = (code: string, salt: string, storedHash: string): boolean => sameHash(hashCode(code, salt), storedHash);
