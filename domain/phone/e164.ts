/** ITU-T E.164: a plus, a country code that never starts with 0, at most 15 digits in all. */
export const E164 = /^\+[1-9]\d{1,14}$/;

export function isE164(value: unknown): value is string {
  return typeof value === 'string' && E164.test(value);
}
