import { describe, expect, it } from 'vitest';
import { isE164 } from '../../../domain/phone/e164.js';

describe('E.164 phone numbers (caller input check before placement)', () => {
  it.each(['+14155550123', '+442071838750', '+4930123456', '+12', '+123456789012345'])('accepts %s', (n) => {
    expect(isE164(n)).toBe(true);
  });

  it.each([
    '14155550123', // no plus
    '+04155550123', // country code starting with 0
    '+1234567890123456', // 16 digits
    '+1', // too short
    '+1 415 555 0123', // spaces
    '+1-415-555-0123',
    '+1415555012a',
    ' +14155550123',
    '+14155550123\n',
    '',
    '+',
  ])('rejects %j', (n) => {
    expect(isE164(n)).toBe(false);
  });

  it.each([undefined, null, 14155550123, {}, ['+14155550123']])('rejects non-string %j', (n) => {
    expect(isE164(n)).toBe(false);
  });
});
