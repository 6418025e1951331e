/**
 * The fast ISO text paths (iso-scan.ts, iso-format.ts) against what they stand in for: the regular
 * expressions of instant-input.ts and Date.prototype.toISOString. Same values (-0 included) and
 * same failures, on generated text that is mostly the plain shapes and partly near misses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CalendarEngineError } from '../../../domain/calendar/index.js';
import {
  type ParsedInstant,
  formatInZone,
  formatUtc,
  formatWithOffset,
  parseInstant,
  tryParseLocalDateTime,
  tryParseOffsetDateTime,
  wallToInstant,
  zoneOffset,
} from '../../../domain/calendar/local-time.js';

// ---------------------------------------------------------------------------------------------
// What the fast paths replace

function regexParse(input: string, zone: string | undefined): ParsedInstant | 'invalid' {
  const withOffset = tryParseOffsetDateTime(input);
  if (withOffset) return withOffset;
  const wall = tryParseLocalDateTime(input.trim());
  if (wall === undefined || zone === undefined) return 'invalid';
  return { instant: wallToInstant(zone, wall) };
}

function parsed(input: string, zone: string | undefined): ParsedInstant | 'invalid' {
  try {
    return parseInstant(input, zone);
  } catch (e) {
    if (e instanceof CalendarEngineError && e.kind === 'invalid-input') return 'invalid';
    throw e;
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function dateFormatWithOffset(instant: number, offset: number): string {
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset) / 60_000;
  return `${new Date(instant + offset).toISOString().slice(0, -1)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

// ---------------------------------------------------------------------------------------------
// Generators

const num = (min: number, max: number, width = 2) => fc.integer({ min, max }).map((n) => pad(n, width));
const offsetArb = fc.oneof(
  fc.constantFrom('Z', 'z', ''),
  fc
    .tuple(fc.constantFrom('+', '-'), num(0, 20), fc.constantFrom('', ':', 'x', '-', '.'), num(0, 61))
    .map(([sign, h, sep, m]) => (sep === 'x' ? `${sign}${h}` : `${sign}${h}${sep}${m}`)),
);
const plainArb = fc
  .tuple(
    num(0, 9999, 4),
    num(0, 13),
    num(0, 32),
    fc.constantFrom('T', 'T', 'T', ' ', 't'),
    num(0, 25),
    num(0, 61),
    fc.option(num(0, 61)),
    fc.option(fc.tuple(fc.constantFrom('.', ','), fc.integer({ min: 0, max: 11 }), fc.nat())),
    offsetArb,
  )
  .map(([y, mo, d, sep, h, mi, s, frac, off]) => {
    const fraction = s === null || frac === null ? '' : `${frac[0]}${String(frac[2]).padEnd(frac[1], '7').slice(0, frac[1])}`;
    return `${y}-${mo}-${d}${sep}${h}:${mi}${s === null ? '' : `:${s}`}${fraction}${off}`;
  });
/** The plain shapes, and the same with a character dropped, inserted or replaced, or spaces around. */
const textArb = fc.oneof(
  plainArb,
  plainArb,
  fc.tuple(plainArb, fc.nat(), fc.constantFrom('', ' ', '0', '9', ':', '-', '+', 'Z', '.', 'T')).map(([t, i, c]) => {
    const k = i % (t.length + 1);
    return `${t.slice(0, k)}${c}${t.slice(k + 1)}`;
  }),
  fc.tuple(plainArb, fc.constantFrom(' ', '\t', '')).map(([t, w]) => `${w}${t}${w === '' ? ' ' : ''}`),
  fc.string({ maxLength: 30 }),
);
const zoneArb = fc.constantFrom(undefined, 'UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata');

describe('ISO text: parsing', () => {
  it('parseInstant equals the regex path on plain shapes and near misses (property)', () => {
    fc.assert(
      fc.property(textArb, zoneArb, (text, zone) => {
        expect(parsed(text, zone)).toEqual(regexParse(text, zone));
      }),
      { numRuns: 5000 },
    );
  });

  it('every fraction of one to three digits gives the regex path its milliseconds', () => {
    for (let digits = 1; digits <= 3; digits++) {
      for (let f = 0; f < 10 ** digits; f++) {
        const text = `2024-02-29T23:59:59.${pad(f, digits)}Z`;
        expect(parsed(text, undefined)).toEqual(regexParse(text, undefined));
      }
    }
  });

  it('written offsets, including -00:00, are kept as written', () => {
    expect(parseInstant('2024-03-10T07:30:00-00:00', undefined)).toEqual(regexParse('2024-03-10T07:30:00-00:00', undefined));
    expect(Object.is(parseInstant('2024-03-10T07:30-00', undefined).writtenOffset, -0)).toBe(true);
    expect(parseInstant('2024-03-10T07:30:00.5+0530', undefined)).toEqual({ instant: Date.parse('2024-03-10T02:00:00.500Z'), writtenOffset: 19_800_000 });
  });
});

describe('ISO text: formatting', () => {
  const instantArb = fc.oneof(
    fc.integer({ min: -62_198_755_200_000, max: 253_433_923_200_000 }), // a year either side of 0000..9999
    fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
    fc.constantFrom(-62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_999, 253_402_300_800_000, 0, -1),
    fc.double({ min: -1e13, max: 1e13, noNaN: true }),
  );
  const offsetMsArb = fc.oneof(fc.integer({ min: -18 * 60, max: 18 * 60 }).map((m) => m * 60_000), fc.constant(-0));

  it('formatUtc is toISOString (property)', () => {
    fc.assert(
      fc.property(instantArb, (t) => {
        expect(formatUtc(t)).toBe(new Date(t).toISOString());
      }),
      { numRuns: 5000 },
    );
  });

  it('formatWithOffset writes the wall clock as Date would, then the offset (property)', () => {
    fc.assert(
      fc.property(instantArb, offsetMsArb, (t, o) => {
        expect(formatWithOffset(t, o)).toBe(dateFormatWithOffset(t, o));
      }),
      { numRuns: 5000 },
    );
  });

  it('formatInZone uses the zone offset at the instant', () => {
    const t = Date.UTC(2024, 9, 27, 0, 59, 59, 999);
    expect(formatInZone(t, 'Europe/Berlin')).toBe(dateFormatWithOffset(t, zoneOffset('Europe/Berlin', t)));
    expect(formatInZone(t + 1, 'Europe/Berlin')).toBe('2024-10-27T02:00:00.000+01:00');
  });

  it('an invalid time fails as Date fails', () => {
    expect(() => formatUtc(Number.NaN)).toThrow(RangeError);
    expect(() => formatUtc(8.64e15 + 1)).toThrow(RangeError);
  });
});
