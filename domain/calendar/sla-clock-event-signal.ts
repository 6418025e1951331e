/**
 * `SlaClockEvent`: what a workflow that started an SLA clock (the `startSlaClock` activity) hears
 * of it. Each warning, the breach, met and cancelled the clock records is sent to that workflow
 * through the outbox, in the transaction that records it (cancelled too, so that a process waiting
 * for the breach or met of a clock someone deleted is not left waiting for ever); the workflow
 * waits with `awaitSlaClockEvent` (workflows/sla-clock-events.ts). Plain data, shared by the
 * service that writes the signal rows and the workflow bundle that reads them.
 */
import { signalContract } from '../process-contract.js';
import type { ClockEvent } from './sla-clock-steps.js';

export const SLA_CLOCK_EVENT_KINDS = ['warning', 'breached', 'met', 'cancelled'] as const;
export type SlaClockEventKind = (typeof SLA_CLOCK_EVENT_KINDS)[number];

export interface SlaClockEvent {
  clockId: string;
  kind: SlaClockEventKind;
  /** A warning's percentage; 100 for the breach; null for met and cancelled (as the sla.clock.* webhook events). */
  percent: number | null;
  /** ISO instant it took effect: a warning or the breach, the business instant it was reached; met, the stop; cancelled, the delete. */
  at: string;
}

export const SlaClockEventSignal = signalContract<SlaClockEvent>('SlaClockEvent');

const isWaitedKind = (kind: string): kind is SlaClockEventKind => (SLA_CLOCK_EVENT_KINDS as readonly string[]).includes(kind);

/** The signals a step's recorded events owe the waiting workflow, in the order they were recorded. */
export function slaClockEventsOf(clockId: string, events: readonly ClockEvent[]): SlaClockEvent[] {
  return events.flatMap((e): SlaClockEvent[] => {
    if (!isWaitedKind(e.kind)) return [];
    const percent = e.kind === 'warning' ? Number(e.detail['percent']) : e.kind === 'breached' ? 100 : null;
    return [{ clockId, kind: e.kind, percent, at: new Date(e.at).toISOString() }];
  });
}

/**
 * Delivery is at least once, and a clock records each warning percentage, the breach, met and cancelled once:
 * kind and percent identify an event of a clock.
 */
export const slaClockEventKey = (e: Pick<SlaClockEvent, 'clockId' | 'kind' | 'percent'>) => `${e.clockId}:${e.kind}:${e.percent ?? ''}`;

export interface SlaClockEventFilter {
  /** Default: all of warning, breached, met and cancelled. */
  kinds?: readonly SlaClockEventKind[] | undefined;
  /** Narrows warnings to this percentage; the breach and met match whatever it is. */
  percent?: number | undefined;
}

export function matchesSlaClockEvent(e: SlaClockEvent, filter: SlaClockEventFilter): boolean {
  if (!(filter.kinds ?? SLA_CLOCK_EVENT_KINDS).includes(e.kind)) return false;
  return e.kind !== 'warning' || filter.percent === undefined || e.percent === filter.percent;
}
