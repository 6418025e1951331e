/**
 * Holiday import from the offline `date-holidays` data: available countries and regions, a
 * preview of a country's (and region's) holidays as Holiday-shaped entries, and a merge that skips
 * holidays already present, so importing twice creates no duplicates.
 *
 * How date-holidays entries become days (worked out in real time in the country's zone, the one
 * date-holidays computes its start/end instants in):
 * - An entry covering whole local dates (midnight to midnight, possibly several days, e.g. `P3D`)
 *   gives one closed entry per date.
 * - A partial-day entry (date-holidays gives a start or end time inside the day, e.g. Christmas Eve
 *   from 14:00 in DE/AT, Ash Wednesday until 14:00 in BR) means the holiday is that part of the day;
 *   the rest of the day stays a business day. It becomes a *narrowed* day: closed=false with
 *   openFrom/openUntil = the part of the date that is NOT holiday (holiday from 14:00 → open
 *   00:00..14:00; holiday until 14:00 → open 14:00..24:00). A holiday covering only the middle of
 *   a date keeps the longer uncovered part open. The engine then intersects that day's hours with
 *   the open part.
 * - A date touched only by times that do not exist (a DST gap at midnight right after a one-day
 *   holiday, as in Egypt) gets no entry.
 * - Entries whose date is written with an offset (Islamic and Jewish holidays, which date-holidays
 *   starts at the previous evening's sunset, `2024-04-10 00:00:00 -0600`) are taken as their civil
 *   dates: the eve is not cut, and the days are closed from midnight. An end at the same evening
 *   hour is rounded up to midnight.
 * - Substitute days (`substitute: true` in date-holidays, e.g. a Monday off for a Sunday holiday) are
 *   flagged `substitute: true`.
 */
import { createRequire } from 'node:module';
import type { HolidaysTypes } from 'date-holidays';
import { invalidInput } from './errors.js';
import {
  DAY_MS,
  MINUTES_PER_DAY,
  MINUTE_MS,
  formatDateKey,
  instantToWall,
  isValidTimeZone,
  pad2,
  tryParseDateKey,
  wallToInstant,
} from './local-time.js';
import type { SnapshotHoliday } from './types.js';

type HolidaysClass = typeof import('date-holidays').default;
let holidaysClass: HolidaysClass | undefined;
/**
 * date-holidays, loaded by the first import or preview: its data for every country is 8-9 MiB of
 * a node's heap, which each full collection of a node that never imports holidays would mark again.
 */
function newHolidays(...args: [] | [country: string] | [country: string, region: string]): InstanceType<HolidaysClass> {
  // Its CommonJS build exports the class itself.
  holidaysClass ??= createRequire(import.meta.url)('date-holidays') as HolidaysClass;
  return Reflect.construct(holidaysClass, args) as InstanceType<HolidaysClass>;
}

export type HolidayImportType = HolidaysTypes.HolidayType;
export const HOLIDAY_IMPORT_TYPES: readonly HolidayImportType[] = ['public', 'bank', 'optional', 'school', 'observance'];

export interface AvailableRegion {
  regionCode: string;
  name: string;
}

export interface AvailableCountry {
  countryCode: string;
  name: string;
  /** States/provinces of date-holidays (the `region` of a CalendarLocation). */
  regions: AvailableRegion[];
}

export interface ImportedHoliday {
  date: string;
  name: string;
  type: HolidayImportType;
  closed: boolean;
  openFrom?: string;
  openUntil?: string;
  substitute: boolean;
}

export interface HolidayPreviewRequest {
  /** ISO 3166-1 alpha-2, case-insensitive. */
  country: string;
  /** State/province code of date-holidays (case-insensitive), optional. */
  region?: string | null;
  year?: number;
  years?: readonly number[];
  /** Default ['public']. */
  types?: readonly HolidayImportType[];
  /** Language of the names (ISO 639-1). Default 'en', falling back to the country's own. */
  language?: string;
}

let countriesCache: AvailableCountry[] | undefined;

/** Countries with holiday data and their regions, sorted by code (computed once, offline data). */
export function listAvailableCountries(): AvailableCountry[] {
  if (!countriesCache) {
    const hd = newHolidays();
    const countries = hd.getCountries('en');
    countriesCache = Object.keys(countries)
      .sort()
      .map((code) => {
        const states = hd.getStates(code, 'en') ?? {};
        return {
          countryCode: code,
          name: countries[code] ?? code,
          regions: Object.keys(states)
            .sort()
            .map((r) => ({ regionCode: r, name: states[r] ?? r })),
        };
      });
  }
  return countriesCache.map((c) => ({ ...c, regions: c.regions.map((r) => ({ ...r })) }));
}

const hhmm = (minutes: number) => (minutes >= MINUTES_PER_DAY ? '24:00' : `${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`);

type DayEntry = { date: string; closed: boolean; openFrom?: string; openUntil?: string };

/**
 * A holiday's extent as instants [start, end). date-holidays gives both in the country's first
 * zone. Sunset-to-sunset holidays (date written with an offset back to the eve) are moved to their
 * civil dates: they start at the date's midnight, and an end at the eve hour becomes midnight.
 */
function holidayExtent(h: HolidaysTypes.Holiday, zone: string): { start: number; end: number } {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2})(?::\d{2})?(?: ([+-])(\d{2})(\d{2}))?$/.exec(h.date);
  const day = m ? tryParseDateKey(m[1] as string) : undefined;
  if (!m || day === undefined) throw invalidInput(`unexpected holiday date "${h.date}" in holiday data`);
  if (m[4] === undefined) return { start: h.start.getTime(), end: h.end.getTime() };
  const offMin = (m[4] === '-' ? -1 : 1) * (Number(m[5]) * 60 + Number(m[6]));
  const eveStart = day * MINUTES_PER_DAY + Number(m[2]) * 60 + Number(m[3]) + offMin; // wall minutes
  let endWall = eveStart + Math.round((h.end.getTime() - h.start.getTime()) / MINUTE_MS);
  const mod = (x: number) => ((x % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  if (mod(endWall) === mod(eveStart)) endWall = Math.ceil(endWall / MINUTES_PER_DAY) * MINUTES_PER_DAY;
  return {
    start: wallToInstant(zone, day * DAY_MS),
    end: wallToInstant(zone, endWall * MINUTE_MS),
  };
}

/**
 * Splits a holiday into per-date entries, in real time: a date fully covered is closed, a date
 * partly covered is narrowed to its uncovered part, a date covered only in times that do not
 * exist (a DST gap) is left out.
 */
function toDays(h: HolidaysTypes.Holiday, zone: string): DayEntry[] {
  const { start, end } = holidayExtent(h, zone);
  const out: DayEntry[] = [];
  if (end <= start) return out;
  const firstDay = Math.floor(instantToWall(zone, start) / DAY_MS) - 1;
  const lastDay = Math.floor(instantToWall(zone, end) / DAY_MS) + 1;
  for (let d = firstDay; d <= lastDay; d++) {
    const dayStart = wallToInstant(zone, d * DAY_MS);
    const dayEnd = wallToInstant(zone, (d + 1) * DAY_MS);
    const cs = Math.max(start, dayStart);
    const ce = Math.min(end, dayEnd);
    if (ce <= cs) continue;
    const date = formatDateKey(d);
    if (cs === dayStart && ce === dayEnd) {
      out.push({ date, closed: true });
      continue;
    }
    // Covered part of the date in local minutes: [from, until)
    const from = cs === dayStart ? 0 : Math.round((instantToWall(zone, cs) - d * DAY_MS) / MINUTE_MS);
    const until = ce === dayEnd ? MINUTES_PER_DAY : Math.round((instantToWall(zone, ce) - d * DAY_MS) / MINUTE_MS);
    if (from <= 0 || (until < MINUTES_PER_DAY && from < MINUTES_PER_DAY - until)) {
      out.push({ date, closed: false, openFrom: hhmm(until), openUntil: '24:00' });
    } else {
      out.push({ date, closed: false, openFrom: '00:00', openUntil: hhmm(from) });
    }
  }
  return out;
}

/**
 * Holidays of a country (and region) for one or more years, as Holiday-shaped entries sorted by
 * date then name. Only entries of the requested `types` (default public) are kept; an entry whose
 * dates spill outside the requested years is cut to them. Unknown country or region → invalid-input.
 */
export function previewHolidays(request: HolidayPreviewRequest): ImportedHoliday[] {
  const country = request.country.toUpperCase();
  const available = listAvailableCountries().find((c) => c.countryCode === country);
  if (!available) {
    throw invalidInput(`no holiday data for country "${request.country}"`, [
      { path: ['countryCode'], message: 'unknown country' },
    ]);
  }
  let region: string | undefined;
  if (request.region) {
    const r = available.regions.find((x) => x.regionCode.toUpperCase() === String(request.region).toUpperCase());
    if (!r) {
      throw invalidInput(`no holiday data for region "${request.region}" of ${country}`, [
        { path: ['region'], message: 'unknown region' },
      ]);
    }
    region = r.regionCode;
  }
  const years = [...new Set(request.years ?? (request.year !== undefined ? [request.year] : []))].sort((a, b) => a - b);
  if (years.length === 0) throw invalidInput('a year is required', [{ path: ['year'], message: 'required' }]);
  for (const y of years) {
    if (!Number.isInteger(y) || y < 1900 || y > 2200) {
      throw invalidInput(`year must be an integer 1900..2200, got ${y}`, [{ path: ['year'], message: 'out of range' }]);
    }
  }
  const types = new Set<HolidayImportType>(request.types && request.types.length > 0 ? request.types : ['public']);
  for (const t of types) {
    if (!HOLIDAY_IMPORT_TYPES.includes(t)) {
      throw invalidInput(`unknown holiday type "${String(t)}"`, [{ path: ['types'], message: 'unknown type' }]);
    }
  }
  const hd = region ? newHolidays(country, region) : newHolidays(country);
  const tz = hd.getTimezones()[0];
  const zone = tz !== undefined && isValidTimeZone(tz) ? tz : 'UTC';
  const yearSet = new Set(years);
  const seen = new Set<string>();
  const out: ImportedHoliday[] = [];
  for (const year of years) {
    for (const h of hd.getHolidays(year, request.language ?? 'en')) {
      if (!types.has(h.type)) continue;
      for (const d of toDays(h, zone)) {
        if (!yearSet.has(Number(d.date.slice(0, 4)))) continue;
        const key = `${d.date}|${h.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ ...d, name: h.name, type: h.type, substitute: h.substitute === true });
      }
    }
  }
  out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.name.localeCompare(b.name)));
  return out;
}

/** The holiday-ish fields dedupe needs. */
export interface ExistingHolidayKey {
  date: string;
  name: string;
  recurring?: boolean | null;
}

const normName = (s: string) => s.trim().toLocaleLowerCase('en');

/**
 * The imported entries that are not already present. Present means same name (trimmed,
 * case-insensitive) and same date, or an existing *recurring* holiday with that name on the same
 * month and day. Duplicates inside `imported` are dropped too. Importing twice adds nothing.
 */
export function mergeImportedHolidays<T extends { date: string; name: string }>(
  existing: readonly ExistingHolidayKey[],
  imported: readonly T[],
): T[] {
  const dated = new Set<string>();
  const recurring = new Set<string>();
  for (const e of existing) {
    dated.add(`${e.date}|${normName(e.name)}`);
    if (e.recurring) recurring.add(`${e.date.slice(5)}|${normName(e.name)}`);
  }
  const out: T[] = [];
  for (const h of imported) {
    const key = `${h.date}|${normName(h.name)}`;
    if (dated.has(key) || recurring.has(`${h.date.slice(5)}|${normName(h.name)}`)) continue;
    dated.add(key);
    out.push(h);
  }
  return out;
}

/** A Holiday create body from an imported entry (not recurring: the data gives each year's date). */
export function importedToHolidayInput(h: ImportedHoliday): Required<Omit<SnapshotHoliday, 'name'>> & {
  name: string;
  type: string;
  description: string | null;
} {
  return {
    date: h.date,
    name: h.name,
    type: h.type,
    closed: h.closed,
    openFrom: h.openFrom ?? null,
    openUntil: h.openUntil ?? null,
    description: h.substitute ? 'Substitute day' : null,
    recurring: false,
  };
}
