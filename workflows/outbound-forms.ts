// Workflow side of outbound forms: send one through the `sendOutboundForm` activity (the instance
// then names this workflow as `waitingWorkflowId`), and wait durably for the event rail's
// `formInstanceEvent` signal that says it was submitted.
import type { Duration } from '@temporalio/common';
import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { OutboundFormActivities } from '../activities/outbound-forms';
import { FormInstanceEventSignal, type FormInstanceEvent } from '../domain/forms/instance-events';
import type { FormInstanceState } from '../domain/forms/instance-states';

export const formInstanceEvent = defineSignal<[FormInstanceEvent]>(FormInstanceEventSignal.name);

const acts = proxyActivities<OutboundFormActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 20 },
});

/** Sends the form for this workflow (idempotent across activity retries). */
export const sendOutboundForm = acts.sendOutboundForm;

/**
 * The latest event of each instance this workflow heard of, deduplicated by eventId (delivery is at
 * least once). Kept on globalThis, which the SDK gives each workflow its own of (also when it reuses
 * one V8 context for many workflows), rather than in module state.
 */
const KEY = '__platformFormInstanceEvents';

function events(): Map<string, FormInstanceEvent> {
  const scope = globalThis as unknown as Record<string, Map<string, FormInstanceEvent> | undefined>;
  let byInstance = scope[KEY];
  if (!byInstance) {
    const seen = new Set<string>();
    const latest = new Map<string, FormInstanceEvent>();
    setHandler(formInstanceEvent, (event) => {
      if (seen.has(event.eventId)) return;
      seen.add(event.eventId);
      latest.set(event.instanceId, event);
    });
    scope[KEY] = byInstance = latest;
  }
  return byInstance;
}

/** States after which the form will not be submitted any more, or already was. */
const SETTLED: readonly FormInstanceState[] = ['SUBMITTED', 'PROCESSED', 'CANCELLED', 'EXPIRED'];

/**
 * Resolves with the first settling event of the instance: SUBMITTED or PROCESSED (answered),
 * CANCELLED or EXPIRED (never will be); null when `timeout` passes first. Events that arrived
 * before the call count (signals are buffered until the handler is set).
 */
export async function awaitFormSubmitted(instanceId: string, timeout: Duration): Promise<FormInstanceEvent | null> {
  const known = events();
  const settled = () => {
    const e = known.get(instanceId);
    return e && SETTLED.includes(e.state) ? e : undefined;
  };
  const arrived = await condition(() => settled() !== undefined, timeout);
  return arrived ? settled()! : null;
}
