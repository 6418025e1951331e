/**
 * Baseline for bench/sla: the SLA rule done the plain way, stepping minute by minute.
 *
 * Same semantics as the engine (domain/calendar), written independently with luxon: each
 * location's windows are laid out per local day (holiday masks per local date, wall times
 * converted with luxon, ambiguous times taking the earlier offset), and then every minute from the
 * received time on is tested against the open windows of every location until the budget is used.
 * Window intervals are generated lazily and kept small, so each step is cheap; the cost is the
 * number of minutes stepped.
 */
import { DateTime } from 'luxon';
import type { CalendarSnapshot, SnapshotLocation } from '../../domain/calendar/index.js';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

const hm = (s: string) => (s === '24:00' ? 1440 : Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5)));

/** Wall clock on a date (luxon, utc-zoned date) plus minutes → instant; overlap takes the earlier. */
function toInstant(zone: string, date: DateTime, minuteOfDay: number): number {
  const w = date.plus({ minutes: minuteOfDay });
  const parts = { year: w.year, month: w.month, day: w.day, hour: w.hour, minute: w.minute };
  const t = DateTime.fromObject(parts, { zone }).toMillis(); // gap: luxon moves forward
  for (const k of [120, 60, 30]) {
    const c = DateTime.fromMillis(t - k * MIN, { zone });
    if (c.year === w.year && c.month === w.month && c.day === w.day && c.hour === w.hour && c.minute === w.minute) {
      return t - k * MIN;
    }
  }
  return t;
}

class LocationStepper {
  private intervals: [number, number][] = [];
  private nextDate: DateTime; // next local date to lay out (as a utc-zoned date)
  private readonly dated = new Map<string, [number, number]>();
  private readonly recurring = new Map<string, [number, number]>();

  constructor(
    readonly loc: SnapshotLocation,
    from: number,
  ) {
    const local = DateTime.fromMillis(from, { zone: loc.timezone });
    this.nextDate = DateTime.utc(local.year, local.month, local.day).minus({ days: 2 });
    for (const h of loc.holidays) {
      const mask: [number, number] = h.closed ? [0, 0] : [h.openFrom ? hm(h.openFrom) : 0, h.openUntil ? hm(h.openUntil) : 1440];
      const map = h.recurring ? this.recurring : this.dated;
      const key = h.recurring ? h.date.slice(5) : h.date;
      const prev = map.get(key);
      map.set(key, prev ? [Math.max(prev[0], mask[0]), Math.min(prev[1], mask[1])] : mask);
    }
  }

  private mask(date: DateTime): [number, number] {
    const iso = date.toISODate() as string;
    let m = this.dated.get(iso);
    const r = this.recurring.get(iso.slice(5));
    if (r) m = m ? [Math.max(m[0], r[0]), Math.min(m[1], r[1])] : r;
    return m ?? [0, 1440];
  }

  private layOutNextDay(): void {
    const date = this.nextDate;
    const iso = date.toISODate() as string;
    const next = date.plus({ days: 1 });
    for (const h of this.loc.hours) {
      if (h.active === false || h.dayOfWeek !== date.weekday) continue;
      if ((h.effectiveFrom && iso < h.effectiveFrom) || (h.effectiveUntil && iso > h.effectiveUntil)) continue;
      const s = hm(h.startTime);
      let e = hm(h.endTime);
      if (e <= s) e += 1440;
      const pieces: [DateTime, number, number][] = [[date, s, Math.min(e, 1440)]];
      if (e > 1440) pieces.push([next, 0, e - 1440]);
      for (const [d, a, b] of pieces) {
        const [mf, mu] = this.mask(d);
        const ps = Math.max(a, mf);
        const pe = Math.min(b, mu);
        if (pe <= ps) continue;
        const si = toInstant(this.loc.timezone, d, ps);
        const ei = toInstant(this.loc.timezone, d, pe);
        if (ei > si) this.intervals.push([si, ei]);
      }
    }
    this.intervals.sort((x, y) => x[0] - y[0]);
    this.nextDate = next;
  }

  /** Is the minute starting at m open? m must not decrease between calls. */
  openAt(m: number): boolean {
    // Windows of a local date start no earlier than its midnight minus 15 hours (UTC+14, gaps).
    while (this.nextDate.toMillis() - 15 * HOUR <= m) this.layOutNextDay();
    while (this.intervals.length > 0 && (this.intervals[0] as [number, number])[1] <= m) this.intervals.shift();
    for (const [s, e] of this.intervals) {
      if (s > m) break;
      if (m < e) return true;
    }
    return false;
  }
}

export interface ReferenceResult {
  due: number;
  locationsUsed: string[];
}

/** Due instant of `budgetMinutes` from `received` (UTC ms), or undefined past the horizon. */
export function referenceDueDate(
  cal: CalendarSnapshot,
  received: number,
  budgetMinutes: number,
  horizonDays = 5 * 366,
): ReferenceResult | undefined {
  const steppers = cal.locations.filter((l) => l.enabled !== false).map((l) => new LocationStepper(l, received));
  const used = new Array<boolean>(steppers.length).fill(false);
  const start = Math.ceil(received / MIN) * MIN;
  const limit = start + horizonDays * DAY;
  let consumed = 0;
  for (let m = start; m + MIN <= limit; m += MIN) {
    let open = false;
    steppers.forEach((s, i) => {
      if (s.openAt(m)) {
        open = true;
        used[i] = true;
      }
    });
    if (!open) continue;
    if (budgetMinutes === 0) return { due: m, locationsUsed: [] };
    consumed++;
    if (consumed === budgetMinutes) {
      return { due: m + MIN, locationsUsed: steppers.filter((_, i) => used[i]).map((s) => s.loc.locationCode) };
    }
  }
  return undefined;
}
