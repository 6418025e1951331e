/** Civil dates and times of day as plain numbers: epoch days, minutes after midnight. */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const MINUTES_PER_DAY = 1440;

// ---------------------------------------------------------------------------------------------
// Civil dates (proleptic Gregorian) <-> epoch days, after H. Hinnant's algorithms.

/** Epoch day of a civil date (month 1..12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/** Civil date of an epoch day. */
export function civilFromDays(epochDay: number): CivilDate {
  const z = epochDay + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** ISO day of week of an epoch day: 1 = Monday .. 7 = Sunday (1970-01-01 was a Thursday). */
export function isoDayOfWeek(epochDay: number): number {
  return ((((epochDay + 3) % 7) + 7) % 7) + 1;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (MONTH_DAYS[month - 1] as number);
}

/** Value of the ASCII digits text[from..to), or -1 if any is not a digit. */
function digits(text: string, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** Parses a real `YYYY-MM-DD` date to its epoch day, or returns undefined. */
export function tryParseDateKey(text: string): number | undefined {
  if (typeof text !== 'string' || text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) {
    return undefined;
  }
  return tryCivilDay(digits(text, 0, 4), digits(text, 5, 7), digits(text, 8, 10));
}

/** Epoch day of a real date (year >= 0, month 1..12, day within the month), else undefined. */
export function tryCivilDay(year: number, month: number, day: number): number | undefined {
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return daysFromCivil(year, month, day);
}

export const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

export function formatDateKey(epochDay: number): string {
  const { year, month, day } = civilFromDays(epochDay);
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}`;
}

// ---------------------------------------------------------------------------------------------
// Times of day

/** `HH:mm` → minutes after midnight; `24:00` only when `allowEndOfDay`. Undefined when invalid. */
export function tryParseTimeOfDay(text: string, allowEndOfDay: boolean): number | undefined {
  if (typeof text !== 'string' || text.length !== 5 || text.charCodeAt(2) !== 58) return undefined;
  const h = digits(text, 0, 2);
  const m = digits(text, 3, 5);
  if (h < 0 || m < 0 || m > 59) return undefined;
  if (h === 24 && m === 0) return allowEndOfDay ? MINUTES_PER_DAY : undefined;
  if (h > 23) return undefined;
  return h * 60 + m;
}
