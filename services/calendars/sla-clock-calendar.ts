// What every SLA clock step reads first: the clock's calendar compiled at its current rules
// version, and the conversions between the stored row and the engine's facts.
import type { DbOrTx } from '../../db/client';
import { loadCalendarSnapshot } from '../../db/queries/calendar-snapshot';
import { readClockCalendar, type SlaClockRow, type SlaClockValues } from '../../db/queries/sla-clocks';
import { compileCalendar } from '../../domain/calendar/index';
import type { ClockCalendar, SlaClockFacts } from '../../domain/calendar/sla-clock-steps';
import { type CompiledCalendarCache, compiledCalendarAt } from './compiled-calendars';

/** The calendar a clock computes with: the process's compiled calendar at the version read now; null when it is gone. */
export async function clockCalendarOf(
  db: DbOrTx,
  calendars: CompiledCalendarCache | undefined,
  ref: { tenantId: string; calendarId: string; processCalendarId?: string | null },
): Promise<(ClockCalendar & { calendarCode: string }) | null> {
  const version = await readClockCalendar(db, { tenantId: ref.tenantId, calendarId: ref.calendarId, processCalendarId: ref.processCalendarId ?? null });
  if (!version) return null;
  const { tenantId } = ref;
  const { calendarId } = version;
  if (calendars) {
    const compiled = await compiledCalendarAt(db, calendars, { tenantId, calendarId, rulesVersion: version.rulesVersion });
    return compiled && { calendar: compiled, calendarId, rulesVersion: version.rulesVersion, calendarCode: version.calendarCode };
  }
  const snapshot = await loadCalendarSnapshot(db, { tenantId, calendarId });
  return snapshot && { calendar: compileCalendar(snapshot), calendarId, rulesVersion: snapshot.rulesVersion, calendarCode: snapshot.calendarCode };
}

/** How a step finds a clock's calendar: a live clock through its association (see readClockCalendar). */
export const clockCalendarRef = (row: SlaClockRow) => ({
  tenantId: row.tenantId,
  calendarId: row.calendarId,
  processCalendarId: row.state === 'RUNNING' || row.state === 'PAUSED' ? row.processCalendarId : null,
});

const ms = (d: Date | null) => (d === null ? null : d.getTime());
const date = (t: number | null) => (t === null ? null : new Date(t));
const iso = (t: number) => new Date(t).toISOString();

export function clockFactsOf(row: SlaClockRow): SlaClockFacts {
  return {
    state: row.state,
    budget: { days: row.budgetDays, minutes: row.budgetMinutes },
    warnAt: row.warnAt,
    runs: row.runs.map((r) => ({ from: Date.parse(r.from), to: r.to === null ? null : Date.parse(r.to) })),
    warnings: row.warnings.map((w) => ({ percent: w.percent, at: Date.parse(w.at), recordedAt: Date.parse(w.recordedAt) })),
    dueAt: ms(row.dueAt),
    breachedAt: ms(row.breachedAt),
    stoppedAt: ms(row.stoppedAt),
    cancelledAt: ms(row.cancelledAt),
    calendarId: row.calendarId,
    rulesVersion: row.rulesVersion,
  };
}

/** The columns a step writes back. */
export function clockValuesOf(facts: SlaClockFacts) {
  return {
    state: facts.state,
    warnAt: [...facts.warnAt],
    runs: facts.runs.map((r) => ({ from: iso(r.from), to: r.to === null ? null : iso(r.to) })),
    warnings: facts.warnings.map((w) => ({ percent: w.percent, at: iso(w.at), recordedAt: iso(w.recordedAt) })),
    dueAt: date(facts.dueAt),
    breachedAt: date(facts.breachedAt),
    stoppedAt: date(facts.stoppedAt),
    cancelledAt: date(facts.cancelledAt),
    calendarId: facts.calendarId,
    rulesVersion: facts.rulesVersion,
  } satisfies Partial<SlaClockValues>;
}
