/**
 * SLA clock timing, on the engine's open-time index: a clock consumes its budget of business time
 * only inside its runs (the spans it ran in: a pause ends one, a resume starts the next). Its
 * elapsed time is the calendar's open time inside the runs, and each milestone (a warning's
 * percentage, 100 % for the breach) is the instant the runs' open time reaches that share of the
 * budget. Everything is read from the calendar as it is now, so a changed calendar re-reads the
 * clock's whole past the same way a due date is re-read.
 */
import type { CompiledCalendar } from './calendar-model.js';
import { DAY_MS, MINUTE_MS } from './civil-date.js';
import { openTimeIndexOf } from './open-time-index.js';
import { DEFAULT_HORIZON_DAYS } from './sla.js';

/** A span the clock ran in, epoch ms; `to` null while it runs. */
export interface ClockRun {
  from: number;
  to: number | null;
}

/** A share of the budget and the instant the runs reach it (null: not reached while paused, or beyond the horizon). */
export interface ClockMilestone {
  percent: number;
  at: number | null;
}

/** The percentage of the breach among the milestones. */
export const BREACH_PERCENT = 100;

/** A clock's budget in ms: businessDays × the calendar's businessDayMinutes + businessMinutes. */
export const clockBudgetMs = (calendar: CompiledCalendar, budget: { days: number; minutes: number }) =>
  (budget.days * calendar.businessDayMinutes + budget.minutes) * MINUTE_MS;

/** Consumption starts on a whole minute, as a due date's does (engine rule 5). */
export const firstClockMinute = (receivedAt: number) => Math.ceil(receivedAt / MINUTE_MS) * MINUTE_MS;

/** Open time (ms) of the calendar's enabled locations, as a union, within [from, to). Inactive: none. */
export function openTimeBetween(calendar: CompiledCalendar, from: number, to: number): number {
  if (to <= from || !calendar.active) return 0;
  const index = openTimeIndexOf(calendar);
  if (index.hasNoHours) return 0;
  let total = 0;
  for (let k = Math.floor(from / index.chunkMs); k * index.chunkMs < to; k++) {
    const chunk = index.chunkAt(k * index.chunkMs);
    const a = Math.max(from, chunk.from);
    const b = Math.min(to, chunk.to);
    total += chunk.openBefore(b, chunk.firstEndingAfter(b)) - chunk.openBefore(a, chunk.firstEndingAfter(a));
  }
  return total;
}

/** Business time (ms) the runs consumed up to `now` (a running run counts until now). */
export function clockElapsedMs(calendar: CompiledCalendar, runs: readonly ClockRun[], now: number): number {
  let total = 0;
  for (const run of runs) total += openTimeBetween(calendar, run.from, Math.min(run.to ?? now, now));
  return total;
}

/**
 * The instant each percentage of `budgetMs` is reached by the runs, in ascending percent. A share
 * reached inside a closed run has that run's instant; one beyond the closed runs is reached in the
 * running run (looking DEFAULT_HORIZON_DAYS ahead of its start), or not at all (null) while paused.
 */
export function clockMilestones(
  calendar: CompiledCalendar,
  runs: readonly ClockRun[],
  budgetMs: number,
  percents: readonly number[],
): ClockMilestone[] {
  const sorted = [...new Set(percents)].sort((a, b) => a - b);
  const out: ClockMilestone[] = [];
  const index = openTimeIndexOf(calendar);
  const usable = calendar.active && !index.hasNoHours;
  const used = new Uint8Array(calendar.locations.length);
  let consumed = 0;
  let i = 0;
  for (const run of runs) {
    if (!usable || i >= sorted.length) break;
    const limit = run.to ?? run.from + DEFAULT_HORIZON_DAYS * DAY_MS;
    const open = run.to === null ? Infinity : openTimeBetween(calendar, run.from, run.to);
    for (; i < sorted.length; i++) {
      const target = ((sorted[i] as number) * budgetMs) / 100;
      if (target - consumed > open) break;
      const at = index.consume(run.from, limit, target - consumed, used);
      if (at === undefined) break;
      out.push({ percent: sorted[i] as number, at });
    }
    if (run.to === null) break;
    consumed += open;
  }
  for (; i < sorted.length; i++) out.push({ percent: sorted[i] as number, at: null });
  return out;
}
