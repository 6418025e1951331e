// SLA clocks (docs/calendars.md "SLA clocks"): the operations the routes and the clock's process
// call. Every step runs under the clock's row lock on its calendar as it is now; an operation
// that changes what the process waits for writes its signal in the same transaction, and so does
// every step that records a warning, the breach or met of a clock a workflow waits on.
import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../../db/client';
import { enqueueSignal, enqueueStart } from '../../db/outbox';
import {
  findSlaClockIdByStartKey,
  insertSlaClock,
  insertSlaClockEvents,
  lockSlaClock,
  readClockAssociation,
  updateSlaClock,
  type SlaClockRow,
} from '../../db/queries/sla-clocks';
import { withTransactionRetry } from '../../db/transaction-retry';
import { SlaClockEventSignal, slaClockEventsOf } from '../../domain/calendar/sla-clock-event-signal';
import { SlaClockProcess, type SlaClockChanged, type SlaClockProgress } from '../../domain/calendar/sla-clock-process';
import {
  advanceClock,
  cancelClock,
  pauseClock,
  resumeClock,
  startClock,
  stopClock,
  type ClockCalendar,
  type ClockStep,
  type SlaClockFacts,
} from '../../domain/calendar/sla-clock-steps';
import { badRequest, conflict, notFound } from '../../domain/errors';
import { type SlaClockDeps, readSlaClock } from './sla-clock-reads';
import { clockCalendarOf, clockCalendarRef, clockFactsOf, clockValuesOf } from './sla-clock-calendar';

export type { SlaClockDeps };

export const DEFAULT_WARN_AT = [50, 75] as const;
/** How far back a clock's receivedAt may lie. */
export const MAX_RECEIVED_AGE_DAYS = 366;

export interface SlaClockStart {
  tenantId: string;
  actor: string;
  processCalendarKey: string;
  /** ISO-8601 instant; default now. */
  receivedAt?: string | undefined;
  budget: { days: number; minutes: number };
  subject: { kind: string; id: string };
  warnAt?: readonly number[] | undefined;
}

const isCount = (n: unknown, max: number) => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= max;

/**
 * What the route's schema (SlaClockStartBody) refuses, for the input of the `startSlaClock`
 * activity, which has not been through it: a budget that is not whole numbers within the route's
 * bounds or sums to zero, warnings outside 1..99 or repeated, a receivedAt that is not an instant.
 */
export function clockStartIssue(input: Pick<SlaClockStart, 'budget' | 'warnAt' | 'receivedAt'>): { field: string; message: string } | null {
  const { days, minutes } = input.budget;
  if (!isCount(days, 3650) || !isCount(minutes, 5_256_000)) return { field: 'budget', message: 'days (0-3650) and minutes (0-5256000) must be whole numbers' };
  if (days + minutes === 0) return { field: 'budget', message: 'a clock needs a budget of at least one business minute' };
  const warnAt = input.warnAt ?? DEFAULT_WARN_AT;
  if (warnAt.length > 10 || warnAt.some((p) => !Number.isInteger(p) || p < 1 || p > 99) || new Set(warnAt).size !== warnAt.length) {
    return { field: 'warnAt', message: 'at most 10 distinct whole percentages from 1 to 99' };
  }
  if (input.receivedAt !== undefined && Number.isNaN(Date.parse(input.receivedAt))) return { field: 'receivedAt', message: 'must be an ISO-8601 instant' };
  return null;
}

const nowOf = (deps: SlaClockDeps) => deps.clock?.() ?? new Date();
const missing = () => notFound('SLA clock', 'sla-clock-not-found');

/**
 * Writes the step's clock and history and, for a clock a workflow waits on, one `SlaClockEvent`
 * signal per warning, breach or met it recorded (enqueued last: the outbox lock is held to commit).
 */
async function recordStep(tx: DbOrTx, row: Pick<SlaClockRow, 'id' | 'tenantId' | 'waitingWorkflowId'>, step: ClockStep) {
  await updateSlaClock(tx, { id: row.id, values: clockValuesOf(step.clock) });
  await insertSlaClockEvents(tx, {
    tenantId: row.tenantId,
    clockId: row.id,
    events: step.events.map((e) => ({ kind: e.kind, at: new Date(e.at), detail: e.detail })),
  });
  if (!row.waitingWorkflowId) return;
  const target = { capability: SlaClockProcess.capability, tenantId: row.tenantId, businessKey: row.id, workflowId: row.waitingWorkflowId };
  for (const event of slaClockEventsOf(row.id, step.events)) await enqueueSignal(tx, target, SlaClockEventSignal, event);
}

/**
 * Starts a clock on a process association's calendar, with its process (through the outbox). 404
 * `process-calendar-not-found`, 409 `process-calendar-inactive` / `calendar-inactive-calendar`,
 * 422 `calendar-unreachable` (the budget cannot be consumed within five years), 400 for a
 * receivedAt in the future or more than MAX_RECEIVED_AGE_DAYS ago.
 *
 * `platform.waitingWorkflowId` is set by the `startSlaClock` activity only (a tenant's request
 * cannot name a workflow to signal); `platform.startKey` makes a retried activity find its first
 * clock.
 */
export async function startSlaClock(deps: SlaClockDeps, input: SlaClockStart, platform: { waitingWorkflowId?: string; startKey?: string } = {}) {
  if (platform.startKey) {
    const earlier = await findSlaClockIdByStartKey(deps.db, { tenantId: input.tenantId, startKey: platform.startKey });
    if (earlier) return readSlaClock(deps, { tenantId: input.tenantId, id: earlier });
  }
  const now = nowOf(deps);
  const receivedAt = input.receivedAt === undefined ? now.getTime() : Date.parse(input.receivedAt);
  const refuse = (field: string, message: string) =>
    badRequest('validation-failed', `Invalid request json: json.${field}: ${message}`, { errors: [{ path: `json.${field}`, message }] });
  const issue = clockStartIssue(input);
  if (issue) throw refuse(issue.field, issue.message);
  if (receivedAt > now.getTime()) throw refuse('receivedAt', 'must not be in the future');
  // A clock's past is re-read on every step: a bound keeps that a few hundred index chunks.
  if (receivedAt < now.getTime() - MAX_RECEIVED_AGE_DAYS * 86_400_000) throw refuse('receivedAt', `must be within the last ${MAX_RECEIVED_AGE_DAYS} days`);
  const id = randomUUID();
  await withTransactionRetry(deps.db, async (tx) => {
    const association = await readClockAssociation(tx, { tenantId: input.tenantId, processDefinitionKey: input.processCalendarKey });
    if (!association) throw notFound('Process calendar association', 'process-calendar-not-found');
    if (!association.active) throw conflict('process-calendar-inactive', `The association of ${input.processCalendarKey} is not active`);
    const cal = await clockCalendarOf(tx, deps.compiledCalendars, { tenantId: input.tenantId, calendarId: association.calendarId });
    if (!cal) throw notFound('Calendar', 'calendar-not-found');
    const step = startClock({ budget: input.budget, warnAt: input.warnAt ?? DEFAULT_WARN_AT, receivedAt }, cal, now.getTime());
    await insertSlaClock(tx, {
      values: {
        id,
        tenantId: input.tenantId,
        processCalendarId: association.id,
        processCalendarKey: input.processCalendarKey,
        subjectKind: input.subject.kind,
        subjectId: input.subject.id,
        budgetDays: input.budget.days,
        budgetMinutes: input.budget.minutes,
        receivedAt: new Date(receivedAt),
        createdBy: input.actor,
        waitingWorkflowId: platform.waitingWorkflowId ?? null,
        startKey: platform.startKey ?? null,
        ...clockValuesOf(step.clock),
      },
    });
    await recordStep(tx, { id, tenantId: input.tenantId, waitingWorkflowId: platform.waitingWorkflowId ?? null }, step);
    await enqueueStart(tx, SlaClockProcess, { tenantId: input.tenantId, clockId: id });
  });
  return readSlaClock(deps, { tenantId: input.tenantId, id });
}

type StepFn = (clock: SlaClockFacts, cal: ClockCalendar, now: number) => ClockStep;

/** One step under the clock's row lock, and the signal that wakes its process. */
async function runStep(deps: SlaClockDeps, key: { tenantId: string; id: string }, step: StepFn, reason: SlaClockChanged['reason']) {
  const now = nowOf(deps).getTime();
  await withTransactionRetry(deps.db, async (tx) => {
    const row = await lockSlaClock(tx, key);
    if (!row) throw missing();
    const cal = await clockCalendarOf(tx, deps.compiledCalendars, clockCalendarRef(row));
    if (!cal) throw missing();
    await recordStep(tx, row, step(clockFactsOf(row), cal, now));
    await enqueueSignal(tx, { capability: SlaClockProcess.capability, tenantId: row.tenantId, businessKey: row.id }, SlaClockProcess.signals.changed, { reason });
  });
  return readSlaClock(deps, key);
}

/** RUNNING → PAUSED: paused time does not count. 409 `sla-clock-state-conflict` otherwise. */
export const pauseSlaClock = (deps: SlaClockDeps, key: { tenantId: string; id: string }) => runStep(deps, key, pauseClock, 'paused');
/** PAUSED → RUNNING; the due date moves by the business time it was paused. */
export const resumeSlaClock = (deps: SlaClockDeps, key: { tenantId: string; id: string }) => runStep(deps, key, resumeClock, 'resumed');
/** RUNNING or PAUSED → MET; a BREACHED clock stays BREACHED (and stops running). */
export const stopSlaClock = (deps: SlaClockDeps, key: { tenantId: string; id: string }) => runStep(deps, key, stopClock, 'stopped');
/** RUNNING or PAUSED → CANCELLED. */
export const cancelSlaClock = (deps: SlaClockDeps, key: { tenantId: string; id: string }) => runStep(deps, key, cancelClock, 'cancelled');

/**
 * The clock's process step: recompute on the calendar as it is now and record every warning and
 * the breach reached by `reachedAt` (the process's own time at its timer). GONE when the clock was
 * deleted with its calendar.
 */
export async function advanceSlaClock(
  deps: Pick<SlaClockDeps, 'db' | 'compiledCalendars' | 'clock'>,
  input: { tenantId: string; clockId: string; reachedAt: string },
): Promise<SlaClockProgress> {
  const now = nowOf(deps).getTime();
  return withTransactionRetry(deps.db, async (tx) => {
    const row = await lockSlaClock(tx, { tenantId: input.tenantId, id: input.clockId });
    const cal = row && (await clockCalendarOf(tx, deps.compiledCalendars, clockCalendarRef(row)));
    if (!row || !cal) return { state: 'GONE', nextAt: null, finished: true };
    const step = advanceClock(clockFactsOf(row), cal, Date.parse(input.reachedAt), now);
    if (step.events.length > 0) await recordStep(tx, row, step);
    const state = step.clock.state;
    return {
      state,
      nextAt: step.nextAt === null ? null : new Date(step.nextAt).toISOString(),
      finished: state !== 'RUNNING' && state !== 'PAUSED',
    };
  });
}
