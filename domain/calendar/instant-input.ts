/**
 * Instants from input text: ISO local or offset date-times, Dates or epoch milliseconds. The
 * plain shapes are read by iso-scan.ts first; the regular expressions here decide the rest.
 */
import { invalidInput } from './errors.js';
import { DAY_MS, HOUR_MS, MINUTE_MS, tryParseDateKey } from './civil-date.js';
import * as scan from './iso-scan.js';
import { assertTimeZone, wallToInstant } from './time-zones.js';

// Bound once: under tsx's CommonJS transform every call of an imported function is a getter call.
const { scanIsoDateTime } = scan;

// ---------------------------------------------------------------------------------------------
// Instants from input text

const ISO_LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?$/;
const OFFSET_RE = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/** A parsed instant input: the instant and, when the text carried one, its fixed offset. */
export interface ParsedInstant {
  instant: number;
  /** Offset written in the input (ms), when it was an instant with an offset or Z. */
  writtenOffset?: number;
}

/**
 * Parses a local ISO date-time (`2024-03-10T02:30`, seconds and fractions optional, or a bare date
 * meaning local midnight) to its wall value, or undefined.
 */
export function tryParseLocalDateTime(text: string): number | undefined {
  const m = ISO_LOCAL_RE.exec(text);
  if (!m) return undefined;
  const day = tryParseDateKey(`${m[1]}-${m[2]}-${m[3]}`);
  if (day === undefined) return undefined;
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  return day * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS + second * 1000 + ms;
}

/**
 * Parses an ISO instant with an offset or `Z` (`2024-03-10T07:30:00Z`, `...+01:00`, `...+0100`).
 * Undefined when the text is not one.
 */
export function tryParseOffsetDateTime(text: string): ParsedInstant | undefined {
  const t = text.trim();
  const tIndex = t.search(/[T ]/);
  if (tIndex < 0) return undefined;
  const off = OFFSET_RE.exec(t.slice(tIndex + 1));
  if (!off) return undefined;
  const local = tryParseLocalDateTime(t.slice(0, t.length - off[0].length));
  if (local === undefined) return undefined;
  let offset = 0;
  const o = off[0];
  if (o.toUpperCase() !== 'Z') {
    const digits = o.slice(1).replace(':', '');
    const h = Number(digits.slice(0, 2));
    const mi = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (h > 18 || mi > 59) return undefined;
    offset = (o[0] === '-' ? -1 : 1) * (h * HOUR_MS + mi * MINUTE_MS);
  }
  return { instant: local - offset, writtenOffset: offset };
}

/** An instant as input: ISO text (with offset/Z, or local in `timezone`), a Date, or epoch ms. */
export type InstantInput = string | Date | number;

/**
 * Normalises an instant input to UTC epoch ms. Text without an offset is a local date-time in
 * `timezone` (a bare date is local midnight), converted with the gap/overlap rules of
 * `wallToInstant`; it is invalid input when no timezone is given.
 */
export function parseInstant(input: InstantInput, timezone: string | undefined, what = 'instant'): ParsedInstant {
  if (input instanceof Date) {
    const t = input.getTime();
    if (Number.isNaN(t)) throw invalidInput(`${what} is an invalid Date`);
    return { instant: t };
  }
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw invalidInput(`${what} must be a finite epoch-ms number`);
    return { instant: input };
  }
  if (typeof input !== 'string') throw invalidInput(`${what} must be an ISO date-time`);
  const scanned = scanIsoDateTime(input);
  if (scanned !== undefined) {
    if (scanned.offset !== undefined) return { instant: scanned.wall - scanned.offset, writtenOffset: scanned.offset };
    if (timezone !== undefined) {
      assertTimeZone(timezone);
      return { instant: wallToInstant(timezone, scanned.wall) };
    }
  }
  const withOffset = tryParseOffsetDateTime(input);
  if (withOffset) return withOffset;
  const wall = tryParseLocalDateTime(input.trim());
  if (wall === undefined) {
    throw invalidInput(`${what} must be an ISO-8601 date-time (local, or with an offset or Z), got "${input}"`);
  }
  if (timezone === undefined) {
    throw invalidInput(`${what} "${input}" has no offset, so a time zone is required`);
  }
  assertTimeZone(timezone);
  return { instant: wallToInstant(timezone, wall) };
}
