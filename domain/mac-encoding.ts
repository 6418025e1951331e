import { timingSafeEqual } from 'node:crypto';

/**
 * Whether `given` is exactly the base64url encoding of `mac`, compared in constant time. Decoding
 * `given` and comparing bytes instead would accept other spellings of the same MAC: Node's decoder
 * ignores the unused low bits of the last character (so four last characters decode alike) and
 * skips characters outside the alphabet. A signed token then has one valid spelling, and a token
 * altered anywhere is refused.
 */
export function isMacEncoding(given: string, mac: Buffer): boolean {
  const expected = Buffer.from(mac.toString('base64url'), 'latin1');
  const actual = Buffer.from(given, 'latin1');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
