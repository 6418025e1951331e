import { condition, continueAsNew, defineQuery, defineSignal, proxyActivities, setHandler, setWorkflowOptions, workflowInfo } from '@temporalio/workflow';
import type { createOutboxActivities } from '../activities/outbox';
import type { SlaClockActivities } from '../activities/sla-clocks';
import { SlaClockProcess, type SlaClockChanged, type SlaClockInput, type SlaClockProgress } from '../domain/calendar/sla-clock-process';
import { versioningBehaviour } from './versioning-behaviour';

/** The clock, its calendar or what it waits for changed: look again (written by operations and calendar triggers). */
export const slaClockChangedSignal = defineSignal<[SlaClockChanged]>(SlaClockProcess.signals.changed.name);
/** Where the process stands: the clock's state as last recorded and the next instant it waits for. */
export const slaClockStateQuery = defineQuery<SlaClockProgress | null>('slaClockState');

type OutboxActivities = ReturnType<typeof createOutboxActivities>;

const acts = proxyActivities<SlaClockActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});
const { closeOutboxRow } = proxyActivities<OutboxActivities>({ startToCloseTimeout: '1 minute' });

/**
 * One process per SLA clock (docs/calendars.md "SLA clocks"). It sleeps until the next warning or
 * the breach, then records what was reached by its own time; any signal (pause, resume, stop,
 * cancel, a calendar change) makes it look again at once. The clock row is the truth: each step
 * reads it under its lock, so a signal that arrives twice, or a timer that fires after a pause,
 * changes nothing. It ends when the clock is MET, BREACHED, CANCELLED or gone.
 */
export async function slaClock(input: SlaClockInput): Promise<SlaClockProgress> {
  let changes = 0;
  let progress: SlaClockProgress | null = null;
  setHandler(slaClockChangedSignal, () => {
    changes += 1;
  });
  setHandler(slaClockStateQuery, () => progress);
  for (;;) {
    const seen = changes;
    progress = await acts.advanceSlaClock({ tenantId: input.tenantId, clockId: input.clockId, reachedAt: new Date().toISOString() });
    if (progress.finished) break;
    if (changes !== seen) continue;
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof slaClock>(input);
    const nextAt = progress.nextAt;
    if (nextAt === null) {
      await condition(() => changes !== seen);
    } else {
      const wait = Date.parse(nextAt) - Date.now();
      if (wait > 0) await condition(() => changes !== seen, wait);
    }
  }
  await closeOutboxRow(SlaClockProcess.capability, input.tenantId, SlaClockProcess.businessKey(input));
  return progress;
}
// AUTO_UPGRADE: a clock runs for its budget (days, weeks, paused without limit); it must not keep an
// old build alive for that. Its loop (advance, then wait) is the whole history new code must
// replay, and the replay corpus checks it does (docs/releases.md).
setWorkflowOptions(versioningBehaviour('AUTO_UPGRADE'), slaClock);
