import type { ClockEventKind } from '../../domain/calendar/sla-clock-steps';
import type { SlaClockReading } from '../../services/calendars/sla-clock-reads';

const MINUTE_MS = 60_000;
const iso = (d: Date | null) => (d === null ? null : d.toISOString());
/** Minutes to the millisecond. */
const minutes = (ms: number) => Math.round(ms) / MINUTE_MS;

export function slaClockView({ row, calendarCode, budgetMs, elapsedMs }: SlaClockReading) {
  const lastRun = row.runs[row.runs.length - 1];
  return {
    id: row.id,
    processCalendarKey: row.processCalendarKey,
    calendarCode,
    subject: { kind: row.subjectKind, id: row.subjectId },
    state: row.state,
    receivedAt: row.receivedAt.toISOString(),
    startedAt: new Date(row.runs[0]!.from).toISOString(),
    budget: { days: row.budgetDays, minutes: row.budgetMinutes, totalMinutes: Math.round(budgetMs / MINUTE_MS) },
    warnAt: row.warnAt,
    dueAt: iso(row.dueAt),
    pausedAt: row.state === 'PAUSED' && lastRun?.to ? new Date(lastRun.to).toISOString() : null,
    elapsedBusinessMinutes: minutes(elapsedMs),
    remainingBusinessMinutes: minutes(Math.max(0, budgetMs - elapsedMs)),
    warnings: row.warnings,
    breachedAt: iso(row.breachedAt),
    stoppedAt: iso(row.stoppedAt),
    cancelledAt: iso(row.cancelledAt),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function slaClockDetailView(reading: SlaClockReading) {
  return {
    ...slaClockView(reading),
    history: (reading.history ?? []).map((e) => ({
      kind: e.kind as ClockEventKind,
      at: e.at.toISOString(),
      detail: e.detail,
      recordedAt: e.recordedAt.toISOString(),
    })),
  };
}
