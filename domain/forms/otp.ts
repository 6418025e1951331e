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

/** The stored state of one code as `judgeCode` reads it (forms recipients and signers keep it alike). */
export interface StoredCode {
  codeHash: string | null;
  codeSalt: string | null;
  expiresAt: Date;
  attempts: number;
}

export type CodeJudgement =
  /** No live code: nothing to change. */
  | { outcome: 'none' }
  /** A wrong code: store `changes` (one more attempt; at the cap the code is dead). */
  | { outcome: 'wrong'; changes: Pick<StoredCode, 'attempts'> & Partial<Pick<StoredCode, 'codeHash' | 'codeSalt'>> }
  /** The right code, used up: store `changes`, give the recipient `accessToken` until `expiresAt`. */
  | {
      outcome: 'accepted';
      accessToken: string;
      expiresAt: Date;
      changes: Pick<StoredCode, 'codeHash' | 'codeSalt' | 'attempts'> & { accessTokenHash: string; accessExpiresAt: Date };
    };

/**
 * The one-time-code rule: a right code (constant time, within its expiry, before the attempt cap)
 * is used up and gives an access token; a wrong one counts an attempt, and at `maxAttempts` the
 * code is dead.
 */
export function judgeCode(stored: StoredCode | undefined, code: string, at: Date, limits: { maxAttempts: number; accessTtlMinutes: number }): CodeJudgement {
  if (!stored || !stored.codeHash || !stored.codeSalt || stored.expiresAt.getTime() <= at.getTime()) return { outcome: 'none' };
  const attempts = stored.attempts + 1;
  if (!codeMatches(code, stored.codeSalt, stored.codeHash)) {
    return { outcome: 'wrong', changes: attempts >= limits.maxAttempts ? { attempts, codeHash: null, codeSalt: null } : { attempts } };
  }
  const accessToken = newAccessToken();
  const expiresAt = new Date(at.getTime() + limits.accessTtlMinutes * 60_000);
  return {
    outcome: 'accepted',
    accessToken,
    expiresAt,
    changes: { codeHash: null, codeSalt: null, attempts, accessTokenHash: hashAccessToken(accessToken), accessExpiresAt: expiresAt },
  };
}

/** The code limits of the settings (one rule for forms recipients and signers). */
export const codeLimits = (settings: { 'forms.otp.max-attempts': number; 'forms.recipient.access-ttl-minutes': number }) => ({
  maxAttempts: settings['forms.otp.max-attempts'],
  accessTtlMinutes: settings['forms.recipient.access-ttl-minutes'],
});
