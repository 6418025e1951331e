/**
 * ISO text of instants, as `Date.prototype.toISOString` writes it, without a Date: on a due-date
 * lookup that costs a microsecond, three toISOString calls were most of the time. Dates are
 * written from memoised day prefixes and a table of the day's minutes; anything unusual (a
 * fraction of a millisecond, a year outside 0000..9999, NaN) goes to Date, so the text (and the
 * RangeError of an invalid time) is always Date's.
 */
import * as civil from './civil-date.js';
import * as zones from './time-zones.js';

// Bound once: under tsx's CommonJS transform every read of an imported binding is a getter call,
// which on this hot path cost more than the lookup itself.
const { DAY_MS, MINUTE_MS, civilFromDays, daysFromCivil, pad2 } = civil;
const { zoneOffset } = zones;

const FIRST_FAST_MS = daysFromCivil(0, 1, 1) * DAY_MS;
const END_FAST_MS = daysFromCivil(10_000, 1, 1) * DAY_MS;

const HOURS_MINUTES: string[] = Array.from({ length: 1440 }, (_, m) => `${pad2(Math.floor(m / 60))}:${pad2(m % 60)}`);

/** 'YYYY-MM-DDT' by epoch day; cleared when large (instants in use cluster around now). */
const dayPrefixes = new Map<number, string>();
const MAX_DAY_PREFIXES = 4096;

function dayPrefix(day: number): string {
  let p = dayPrefixes.get(day);
  if (p === undefined) {
    const { year, month, day: d } = civilFromDays(day);
    p = `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(d)}T`;
    if (dayPrefixes.size >= MAX_DAY_PREFIXES) dayPrefixes.clear();
    dayPrefixes.set(day, p);
  }
  return p;
}

/** `:ss.sss` of a millisecond within a minute. */
function secondsText(ms: number): string {
  if (ms === 0) return ':00.000';
  const s = Math.floor(ms / 1000);
  const f = ms - s * 1000;
  return `:${pad2(s)}.${f < 10 ? '00' : f < 100 ? '0' : ''}${f}`;
}

/** 'YYYY-MM-DDTHH:mm:ss.sss' of a wall value, or undefined when Date must write it. */
function fastWallText(wall: number): string | undefined {
  if (!Number.isInteger(wall) || wall < FIRST_FAST_MS || wall >= END_FAST_MS) return undefined;
  const day = Math.floor(wall / DAY_MS);
  const inDay = wall - day * DAY_MS;
  const minute = Math.floor(inDay / MINUTE_MS);
  return dayPrefix(day) + (HOURS_MINUTES[minute] as string) + secondsText(inDay - minute * MINUTE_MS);
}

export function formatUtc(instant: number): string {
  const text = fastWallText(instant);
  return text === undefined ? new Date(instant).toISOString() : `${text}Z`;
}

const offsetTexts = new Map<number, string>();

function formatOffset(offset: number): string {
  let text = offsetTexts.get(offset);
  if (text === undefined) {
    const sign = offset < 0 ? '-' : '+';
    const abs = Math.abs(offset) / MINUTE_MS;
    text = `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
    // Offsets in use are few; an odd caller passing arbitrary ones must not grow this forever.
    if (offsetTexts.size < 1024) offsetTexts.set(offset, text);
  }
  return text;
}

/** ISO local date-time with its offset, e.g. `2024-03-11T10:00:00.000-04:00`. */
export function formatWithOffset(instant: number, offset: number): string {
  const wall = instant + offset;
  const text = fastWallText(wall) ?? new Date(wall).toISOString().slice(0, -1); // wall clock written as if UTC
  return text + formatOffset(offset);
}

/** ISO local date-time of `instant` in `zone`, with the zone's offset at that instant. */
export function formatInZone(instant: number, zone: string): string {
  return formatWithOffset(instant, zoneOffset(zone, instant));
}
