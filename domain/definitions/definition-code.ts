// Definition codes: a capability prefix, 4 random characters and the creation date, e.g.
// `FM-K7QX05MAR26` (spec: `FM-` + 4 characters + DDMMMYY). Unique per tenant; the service retries
// a collision with fresh characters.

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;
/** No 0/O or 1/I: codes are read aloud and typed by people. */
export const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** `random(n)` answers an integer in [0, n); injected so tests can force collisions. */
export type RandomInt = (n: number) => number;

const two = (n: number) => String(n).padStart(2, '0');

/** DDMMMYY of the UTC date, e.g. 05MAR26. */
export function codeDate(at: Date): string {
  return `${two(at.getUTCDate())}${MONTHS[at.getUTCMonth()]}${two(at.getUTCFullYear() % 100)}`;
}

export function generateDefinitionCode(prefix: string, at: Date, random: RandomInt): string {
  let chars = '';
  for (let i = 0; i < 4; i++) chars += CODE_ALPHABET[random(CODE_ALPHABET.length)];
  return `${prefix}${chars}${codeDate(at)}`;
}

/** The shape of a code with this prefix (lookups by code refuse anything else up front). */
export function definitionCodePattern(prefix: string): RegExp {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  return new RegExp(`^${escaped}[A-Z0-9]{4}(0[1-9]|[12][0-9]|3[01])(${MONTHS.join('|')})[0-9]{2}$`);
}
