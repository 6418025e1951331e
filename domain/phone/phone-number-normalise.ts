// Numbers as people type them ("+1 (415) 555-0123", "+44 20 7946 0958") to the one E.164 form the
// do-not-call list is keyed on, so a listed number matches however it was written.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** The E.164 form of a valid number in international form; null when it is not one. */
export function normalisePhoneNumber(input: string): string | null {
  const trimmed = input.trim();
  // International form only: a national number means nothing without the callee's country.
  if (!trimmed.startsWith('+') || trimmed.length > 40) return null;
  const parsed = parsePhoneNumberFromString(trimmed);
  if (!parsed || !parsed.isValid()) return null;
  return parsed.number;
}
