// The SLA clock as a process (docs/calendars.md "SLA clocks"): one workflow per clock, started
// through the outbox with the clock row, woken by a signal whenever the clock or its calendar
// changes. Plain data, so the API, the services, the triggers' SQL and the workflow bundle agree.
import { defineProcess, signalContract } from '../process-contract';

export const SLA_CLOCK_STATES = ['RUNNING', 'PAUSED', 'MET', 'BREACHED', 'CANCELLED'] as const;
export type SlaClockState = (typeof SLA_CLOCK_STATES)[number];

/** RUNNING and PAUSED clocks still move; the others are finished (a BREACHED one may still be stopped). */
export const LIVE_SLA_CLOCK_STATES: readonly SlaClockState[] = ['RUNNING', 'PAUSED'];

export interface SlaClockInput {
  tenantId: string;
  clockId: string;
}

/**
 * Why the clock's process should look at the clock again. `calendar-changed` is written by the
 * database triggers of migration 0025 (with the calendar's new rulesVersion, or null when an
 * association moved the clock to another calendar); the others by the operations.
 */
export interface SlaClockChanged {
  reason: 'calendar-changed' | 'paused' | 'resumed' | 'stopped' | 'cancelled';
  rulesVersion?: number | null;
}

/** What the process knows after each step (its query answers it). */
export interface SlaClockProgress {
  state: SlaClockState | 'GONE';
  /** ISO instant of the next warning or the breach; null when none is scheduled (paused, finished, unreachable). */
  nextAt: string | null;
  /** True when the process has nothing left to wait for. */
  finished: boolean;
}

export const SlaClockProcess = defineProcess<SlaClockInput>()({
  capability: 'SLA',
  workflowType: 'slaClock',
  tenantOf: (i) => i.tenantId,
  businessKey: (i) => i.clockId,
  signals: { changed: signalContract<SlaClockChanged>('SlaClockChanged') },
});
