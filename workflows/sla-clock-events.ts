// Workflow side of SLA clocks started by a process: start one through the `startSlaClock` activity
// (the clock then names this workflow as the one waiting), and wait durably for its
// `SlaClockEvent` signals (each warning, the breach, met, cancelled), delivered through the outbox in the
// transaction that records them.
import type { Duration } from '@temporalio/common';
import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { SlaClockActivities } from '../activities/sla-clocks';
import {
  matchesSlaClockEvent,
  slaClockEventKey,
  SlaClockEventSignal,
  type SlaClockEvent,
  type SlaClockEventFilter,
} from '../domain/calendar/sla-clock-event-signal';

export const slaClockEventSignal = defineSignal<[SlaClockEvent]>(SlaClockEventSignal.name);

const acts = proxyActivities<SlaClockActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 20 },
});

/** Starts a clock for this workflow (idempotent across activity retries): `{ clockId, dueAt }`. */
export const startSlaClock = acts.startSlaClock;

/**
 * Every event heard, per clock in arrival order, deduplicated (delivery is at least once). Kept on
 * globalThis, which the SDK gives each workflow its own of, rather than in module state.
 */
const KEY = '__platformSlaClockEvents';

function heard(): Map<string, SlaClockEvent[]> {
  const scope = globalThis as unknown as Record<string, Map<string, SlaClockEvent[]> | undefined>;
  let byClock = scope[KEY];
  if (!byClock) {
    const seen = new Set<string>();
    const known = new Map<string, SlaClockEvent[]>();
    // Set on first use: signals that arrived before it are buffered by the SDK and handed to it now.
    setHandler(slaClockEventSignal, (e) => {
      const key = slaClockEventKey(e);
      if (seen.has(key)) return;
      seen.add(key);
      known.set(e.clockId, [...(known.get(e.clockId) ?? []), e]);
    });
    scope[KEY] = byClock = known;
  }
  return byClock;
}

/**
 * The first event of the clock that matches `kinds` (default all) and, for warnings, `percent`;
 * null when `timeout` passes first. Events that arrived earlier count, and a second call for the
 * same event answers it again. A clock that ends without the kind asked for (met before the
 * breach, or cancelled) sends nothing more of it: wait for the alternatives too (e.g. kinds
 * ['breached', 'met', 'cancelled']) or bound the wait.
 */
export async function awaitSlaClockEvent(
  clockId: string,
  options: SlaClockEventFilter & { timeout: Duration },
): Promise<SlaClockEvent | null> {
  const known = heard();
  const match = () => known.get(clockId)?.find((e) => matchesSlaClockEvent(e, options));
  const arrived = await condition(() => match() !== undefined, options.timeout);
  return arrived ? match()! : null;
}
