// Reads of SLA clocks: each clock with its elapsed and remaining business time at the moment of
// the read, on its calendar as it is now.
import type { Db } from '../../db/client';
import { getSlaClock, listSlaClockEvents, listSlaClocks, type SlaClockEventRow, type SlaClockListRow, type SlaClockRow } from '../../db/queries/sla-clocks';
import { clockBudgetMs, clockElapsedMs } from '../../domain/calendar/sla-clock';
import type { ClockCalendar } from '../../domain/calendar/sla-clock-steps';
import { notFound } from '../../domain/errors';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../domain/keyset-cursor';
import type { CompiledCalendarCache } from './compiled-calendars';
import { clockCalendarOf, clockFactsOf } from './sla-clock-calendar';

/** What the clock operations use: the database, the process's compiled calendars, the clock. */
export interface SlaClockDeps {
  db: Db;
  compiledCalendars?: CompiledCalendarCache | undefined;
  clock?: (() => Date) | undefined;
}

/** The history a read shows: the latest events. */
export const CLOCK_HISTORY_LIMIT = 200;

export interface SlaClockReading {
  row: SlaClockRow;
  calendarCode: string;
  budgetMs: number;
  elapsedMs: number;
  history?: SlaClockEventRow[];
}

function readingOf(row: SlaClockListRow, cal: ClockCalendar | null, now: number): SlaClockReading {
  if (!cal) return { row, calendarCode: row.calendarCode, budgetMs: 0, elapsedMs: 0 };
  const facts = clockFactsOf(row);
  return {
    row,
    calendarCode: row.calendarCode,
    budgetMs: clockBudgetMs(cal.calendar, facts.budget),
    elapsedMs: clockElapsedMs(cal.calendar, facts.runs, now),
  };
}

/**
 * One clock with its history; 404 `sla-clock-not-found` when unknown or another tenant's. Read in
 * one snapshot: a step committing between the reads would otherwise show a history whose
 * `recomputed` entry moved the due date beside the due date from before it (a suite run read that).
 */
export function readSlaClock(deps: SlaClockDeps, key: { tenantId: string; id: string }): Promise<SlaClockReading> {
  return deps.db.transaction(
    async (tx) => {
      const row = await getSlaClock(tx, key);
      if (!row) throw notFound('SLA clock', 'sla-clock-not-found');
      const cal = await clockCalendarOf(tx, deps.compiledCalendars, { tenantId: row.tenantId, calendarId: row.effectiveCalendarId });
      const history = await listSlaClockEvents(tx, { clockId: row.id, limit: CLOCK_HISTORY_LIMIT });
      return { ...readingOf(row, cal, (deps.clock?.() ?? new Date()).getTime()), history };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

export interface SlaClockListRequest {
  tenantId: string;
  subjectKind?: string | undefined;
  subjectId?: string | undefined;
  state?: SlaClockRow['state'] | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** A tenant's clocks, newest first, keyset-paged; filtered by subject (kind, id) and state. */
export async function listTenantSlaClocks(deps: SlaClockDeps, q: SlaClockListRequest) {
  const rows = await listSlaClocks(deps.db, {
    tenantId: q.tenantId,
    ...(q.subjectKind !== undefined ? { subjectKind: q.subjectKind } : {}),
    ...(q.subjectId !== undefined ? { subjectId: q.subjectId } : {}),
    ...(q.state !== undefined ? { state: q.state } : {}),
    limit: q.limit + 1,
    ...(q.cursor ? { after: decodeKeysetCursor(q.cursor) } : {}),
  });
  const page = rows.slice(0, q.limit);
  const now = (deps.clock?.() ?? new Date()).getTime();
  const calendars = new Map<string, ClockCalendar | null>();
  const items: SlaClockReading[] = [];
  for (const row of page) {
    const calendarId = row.effectiveCalendarId;
    if (!calendars.has(calendarId)) calendars.set(calendarId, await clockCalendarOf(deps.db, deps.compiledCalendars, { tenantId: row.tenantId, calendarId }));
    items.push(readingOf(row, calendars.get(calendarId) ?? null, now));
  }
  const last = page[page.length - 1];
  return { items, limit: q.limit, nextCursor: rows.length > q.limit && last ? encodeKeysetCursor({ createdAt: last.cursorAt, id: last.id }) : null };
}
