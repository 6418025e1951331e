/**
 * A character-code reader for the plain shapes of ISO date-times (`YYYY-MM-DDTHH:mm`, optional
 * `:ss` and fraction, optional `Z` or `±HH[[:]mm]`), ahead of the regular expressions of
 * instant-input.ts: on a warm due-date lookup the regex path cost more than the lookup. It
 * answers only for text it reads in full and finds valid, giving the same values as the regex
 * path; anything else (whitespace, a bare date, an invalid field, an out-of-range offset) is left
 * to that path, so errors and edge cases keep one implementation.
 */
import * as civil from './civil-date.js';

// Bound once: under tsx's CommonJS transform every read of an imported binding is a getter call,
// which on this hot path cost more than the lookup itself.
const { DAY_MS, HOUR_MS, MINUTE_MS, tryCivilDay } = civil;

export interface ScannedDateTime {
  /** Wall-clock reading as epoch ms. */
  wall: number;
  /** Offset written in the text (ms), undefined when it has none. */
  offset: number | undefined;
}

/** Value of two ASCII digits at i, or -1. */
function two(text: string, i: number): number {
  const a = text.charCodeAt(i) - 48;
  const b = text.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

export function scanIsoDateTime(text: string): ScannedDateTime | undefined {
  const n = text.length;
  if (n < 16 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58) {
    return undefined;
  }
  const y1 = two(text, 0);
  const y2 = two(text, 2);
  const month = two(text, 5);
  const dayOfMonth = two(text, 8);
  const hour = two(text, 11);
  const minute = two(text, 14);
  if (y1 < 0 || y2 < 0 || month < 0 || dayOfMonth < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59) return undefined;
  const day = tryCivilDay(y1 * 100 + y2, month, dayOfMonth);
  if (day === undefined) return undefined;
  let i = 16;
  let second = 0;
  let ms = 0;
  if (i < n && text.charCodeAt(i) === 58) {
    second = two(text, i + 1);
    if (second < 0 || second > 59) return undefined;
    i += 3;
    const sep = i < n ? text.charCodeAt(i) : 0;
    if (sep === 46 || sep === 44) {
      const from = i + 1;
      let to = from;
      while (to < n && isDigit(text.charCodeAt(to))) to++;
      const digits = to - from;
      if (digits < 1 || digits > 9) return undefined;
      if (digits <= 3) {
        // Equal to the regex path's Math.floor(Number(`0.${digits}`) * 1000) for every fraction of
        // one to three digits (checked exhaustively in iso-text.test.ts), without a string.
        ms = 0;
        for (let k = from; k < from + 3; k++) ms = ms * 10 + (k < to ? text.charCodeAt(k) - 48 : 0);
      } else {
        // The regex path's own expression, so longer fractions round the same way.
        ms = Math.floor(Number(`0.${text.slice(from, to)}`) * 1000);
      }
      i = to;
    }
  }
  const wall = day * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS + second * 1000 + ms;
  if (i === n) return { wall, offset: undefined };
  const c = text.charCodeAt(i);
  if ((c === 90 || c === 122) && i + 1 === n) return { wall, offset: 0 };
  if (c !== 43 && c !== 45) return undefined;
  const oh = two(text, i + 1);
  if (oh < 0 || oh > 18) return undefined;
  let om = 0;
  let j = i + 3;
  if (j < n) {
    if (text.charCodeAt(j) === 58) j++;
    om = two(text, j);
    if (om < 0 || om > 59 || j + 2 !== n) return undefined;
  }
  return { wall, offset: (c === 45 ? -1 : 1) * (oh * HOUR_MS + om * MINUTE_MS) };
}
