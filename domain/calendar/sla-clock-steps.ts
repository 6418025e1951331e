/**
 * The steps of an SLA clock as pure functions over its facts and its calendar as it is now: each
 * first brings the clock up to date (a changed calendar recomputed, every warning and the breach
 * reached by then recorded), then applies its change. The service runs them under the clock's row
 * lock; the clock's process runs `advanceClock` at each timer.
 */
import { AppError } from '../errors.js';
import type { CompiledCalendar } from './calendar-model.js';
import { CalendarEngineError } from './errors.js';
import { LIVE_SLA_CLOCK_STATES, type SlaClockState } from './sla-clock-process.js';
import { BREACH_PERCENT, clockBudgetMs, clockMilestones, firstClockMinute, type ClockMilestone, type ClockRun } from './sla-clock.js';

export interface ClockWarning {
  percent: number;
  /** The business instant the percentage was reached. */
  at: number;
  recordedAt: number;
}

export interface SlaClockFacts {
  state: SlaClockState;
  budget: { days: number; minutes: number };
  /** Warning percentages (1..99), ascending. */
  warnAt: readonly number[];
  runs: readonly ClockRun[];
  warnings: readonly ClockWarning[];
  dueAt: number | null;
  breachedAt: number | null;
  stoppedAt: number | null;
  cancelledAt: number | null;
  /** The calendar and its rules version the facts were last computed with. */
  calendarId: string;
  rulesVersion: number;
}

/** The calendar a step computes with: compiled at the version it is now. */
export interface ClockCalendar {
  calendar: CompiledCalendar;
  calendarId: string;
  rulesVersion: number;
}

export type ClockEventKind = 'started' | 'paused' | 'resumed' | 'warning' | 'breached' | 'met' | 'stopped' | 'cancelled' | 'recomputed';

export interface ClockEvent {
  kind: ClockEventKind;
  at: number;
  detail: Record<string, unknown>;
}

export interface ClockStep {
  clock: SlaClockFacts;
  events: ClockEvent[];
  /** The next warning or breach to wait for (RUNNING only); null when none. */
  nextAt: number | null;
}

const isLive = (state: SlaClockState) => LIVE_SLA_CLOCK_STATES.includes(state);

function milestonesOf(clock: SlaClockFacts, cal: ClockCalendar): ClockMilestone[] {
  return clockMilestones(cal.calendar, clock.runs, clockBudgetMs(cal.calendar, clock.budget), [...clock.warnAt, BREACH_PERCENT]);
}

/** The due date (the breach milestone) and, for a RUNNING clock, the first unrecorded milestone after `reachedAt`. */
function scheduleOf(
  clock: SlaClockFacts,
  milestones: readonly ClockMilestone[],
  reachedAt: number,
): { dueAt: number | null; nextAt: number | null } {
  const dueAt = milestones.find((m) => m.percent === BREACH_PERCENT)?.at ?? null;
  if (clock.state !== 'RUNNING') return { dueAt, nextAt: null };
  const recorded = new Set(clock.warnings.map((w) => w.percent));
  const next = milestones.find((m) => m.at !== null && m.at > reachedAt && !recorded.has(m.percent));
  return { dueAt, nextAt: next?.at ?? null };
}

const schedule = (clock: SlaClockFacts, cal: ClockCalendar, reachedAt: number) => scheduleOf(clock, milestonesOf(clock, cal), reachedAt);

/** A new clock, running from the first whole minute at or after `receivedAt`. */
export function startClock(
  input: { budget: { days: number; minutes: number }; warnAt: readonly number[]; receivedAt: number },
  cal: ClockCalendar,
  now: number,
): ClockStep {
  if (!cal.calendar.active) throw new CalendarEngineError('inactive-calendar', `calendar ${cal.calendar.calendarCode} is not active`);
  const clock: SlaClockFacts = {
    state: 'RUNNING',
    budget: input.budget,
    warnAt: [...new Set(input.warnAt)].sort((a, b) => a - b),
    runs: [{ from: firstClockMinute(input.receivedAt), to: null }],
    warnings: [],
    dueAt: null,
    breachedAt: null,
    stoppedAt: null,
    cancelledAt: null,
    calendarId: cal.calendarId,
    rulesVersion: cal.rulesVersion,
  };
  const { dueAt, nextAt } = schedule(clock, cal, -Infinity);
  if (dueAt === null) {
    throw new CalendarEngineError('unreachable', `the budget cannot be consumed on calendar ${cal.calendar.calendarCode} within the horizon`);
  }
  const started = { ...clock, dueAt };
  return { clock: started, events: [{ kind: 'started', at: now, detail: { dueAt: iso(dueAt), rulesVersion: cal.rulesVersion } }], nextAt };
}

/**
 * Brings a live clock up to `reachedAt`: recomputed on the calendar as it is now (a `recomputed`
 * event when its calendar or version changed), and every warning and the breach reached by then
 * recorded at the business instant it was reached. A finished clock is returned as it is.
 */
export function advanceClock(clock: SlaClockFacts, cal: ClockCalendar, reachedAt: number, now: number): ClockStep {
  if (!isLive(clock.state)) return { clock, events: [], nextAt: null };
  const events: ClockEvent[] = [];
  let next: SlaClockFacts = { ...clock, calendarId: cal.calendarId, rulesVersion: cal.rulesVersion };
  const milestones = milestonesOf(next, cal);
  if (clock.calendarId !== cal.calendarId || clock.rulesVersion !== cal.rulesVersion) {
    const dueAt = milestones.find((m) => m.percent === BREACH_PERCENT)?.at ?? null;
    events.push({
      kind: 'recomputed',
      at: now,
      detail: { previousDueAt: isoOrNull(clock.dueAt), dueAt: isoOrNull(dueAt), rulesVersion: cal.rulesVersion, calendarChanged: clock.calendarId !== cal.calendarId },
    });
  }
  const recorded = new Set(clock.warnings.map((w) => w.percent));
  const warnings = [...clock.warnings];
  for (const m of milestones) {
    if (m.at === null || m.at > reachedAt) break;
    if (m.percent === BREACH_PERCENT) {
      next = { ...next, state: 'BREACHED', breachedAt: m.at, dueAt: m.at };
      events.push({ kind: 'breached', at: m.at, detail: {} });
    } else if (!recorded.has(m.percent)) {
      warnings.push({ percent: m.percent, at: m.at, recordedAt: now });
      events.push({ kind: 'warning', at: m.at, detail: { percent: m.percent } });
    }
  }
  next = { ...next, warnings };
  if (next.state === 'BREACHED') return { clock: next, events, nextAt: null };
  const { dueAt, nextAt } = scheduleOf(next, milestones, reachedAt);
  return { clock: { ...next, dueAt }, events, nextAt };
}

function stateConflict(clock: SlaClockFacts, step: string): AppError {
  const state = clock.state === 'BREACHED' && clock.stoppedAt !== null ? 'BREACHED (stopped)' : clock.state;
  return new AppError('sla-clock-state-conflict', `The clock is ${state}; it cannot be ${step}`, { state: clock.state });
}

/** Ends the running run at `now` (a run not started yet ends empty). */
function closeRun(runs: readonly ClockRun[], now: number): ClockRun[] {
  return runs.map((r) => (r.to === null ? { from: r.from, to: Math.max(r.from, now) } : r));
}

/** Then, with the advanced clock: its change and its event. */
function stepAfter(
  clock: SlaClockFacts,
  cal: ClockCalendar,
  now: number,
  change: (c: SlaClockFacts) => { clock: SlaClockFacts; event: ClockEvent },
): ClockStep {
  const advanced = advanceClock(clock, cal, now, now);
  const { clock: changed, event } = change(advanced.clock);
  const live = isLive(changed.state);
  const { dueAt, nextAt } = live ? schedule(changed, cal, now) : { dueAt: changed.dueAt, nextAt: null };
  return { clock: { ...changed, dueAt }, events: [...advanced.events, event], nextAt };
}

export function pauseClock(clock: SlaClockFacts, cal: ClockCalendar, now: number): ClockStep {
  return stepAfter(clock, cal, now, (c) => {
    if (c.state !== 'RUNNING') throw stateConflict(c, 'paused');
    return { clock: { ...c, state: 'PAUSED', runs: closeRun(c.runs, now) }, event: { kind: 'paused', at: now, detail: {} } };
  });
}

export function resumeClock(clock: SlaClockFacts, cal: ClockCalendar, now: number): ClockStep {
  return stepAfter(clock, cal, now, (c) => {
    if (c.state !== 'PAUSED') throw stateConflict(c, 'resumed');
    // A clock paused before its first whole minute resumes no earlier than that minute.
    const from = Math.max(now, ...c.runs.map((r) => r.to ?? r.from));
    return { clock: { ...c, state: 'RUNNING', runs: [...c.runs, { from, to: null }] }, event: { kind: 'resumed', at: now, detail: {} } };
  });
}

/** MET when stopped before the breach; a BREACHED clock stays BREACHED and only stops running. */
export function stopClock(clock: SlaClockFacts, cal: ClockCalendar, now: number): ClockStep {
  return stepAfter(clock, cal, now, (c) => {
    if (isLive(c.state)) {
      return { clock: { ...c, state: 'MET', stoppedAt: now, runs: closeRun(c.runs, now) }, event: { kind: 'met', at: now, detail: {} } };
    }
    if (c.state === 'BREACHED' && c.stoppedAt === null) {
      return { clock: { ...c, stoppedAt: now, runs: closeRun(c.runs, now) }, event: { kind: 'stopped', at: now, detail: {} } };
    }
    throw stateConflict(c, 'stopped');
  });
}

export function cancelClock(clock: SlaClockFacts, cal: ClockCalendar, now: number): ClockStep {
  return stepAfter(clock, cal, now, (c) => {
    if (!isLive(c.state)) throw stateConflict(c, 'cancelled');
    return { clock: { ...c, state: 'CANCELLED', cancelledAt: now, runs: closeRun(c.runs, now) }, event: { kind: 'cancelled', at: now, detail: {} } };
  });
}

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));
