// A test-only workflow (its own workflowsPath): starts an SLA clock through the platform activity
// and waits for its events with the workflow-side helper, one filter after the other, as a
// business process would. `held`: it waits for `release` before it starts waiting, so the test can
// let the clock's signals arrive first.
import type { Duration } from '@temporalio/common';
import { condition, defineSignal, setHandler, setWorkflowOptions } from '@temporalio/workflow';
import type { StartSlaClockInput } from '../../../activities/sla-clocks';
import type { SlaClockEvent, SlaClockEventFilter } from '../../../domain/calendar/sla-clock-event-signal';
import { awaitSlaClockEvent, startSlaClock } from '../../../workflows/sla-clock-events';
import { versioningBehaviour } from '../../../workflows/versioning-behaviour';

export const releaseSignal = defineSignal('release');

export interface SlaClockWaiterInput {
  start: StartSlaClockInput;
  waitFor: SlaClockEventFilter[];
  /** Each wait's timeout. */
  wait: Duration;
  held?: boolean;
}

export async function slaClockWaiter(input: SlaClockWaiterInput) {
  let released = !input.held;
  setHandler(releaseSignal, () => void (released = true));
  const { clockId, dueAt } = await startSlaClock(input.start);
  await condition(() => released);
  const events: Array<SlaClockEvent | null> = [];
  for (const filter of input.waitFor) events.push(await awaitSlaClockEvent(clockId, { ...filter, timeout: input.wait }));
  return { clockId, dueAt, events };
}
setWorkflowOptions(versioningBehaviour('PINNED'), slaClockWaiter);
