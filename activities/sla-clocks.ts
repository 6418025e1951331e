import { Context } from '@temporalio/activity';
import type { SlaClockProgress } from '../domain/calendar/sla-clock-process';
import { advanceSlaClock, startSlaClock, type SlaClockStart } from '../services/calendars/sla-clocks';
import type { ActivityDeps, CoreActivityDeps } from './deps';
import { toActivityFailure } from './failures';

/** The clock a workflow starts: the route's body plus the tenant (the workflow acts for it). */
export type StartSlaClockInput = Omit<SlaClockStart, 'actor'>;

export function createSlaClockActivities({ db, compiledCalendars }: CoreActivityDeps & Pick<ActivityDeps, 'compiledCalendars'>) {
  return {
    /**
     * The clock's process step at its timer (or on a signal): recompute on the calendar as it is
     * now, record the warnings and the breach reached by `reachedAt` (the workflow's time), and
     * tell the process what to wait for next.
     */
    async advanceSlaClock(input: { tenantId: string; clockId: string; reachedAt: string }): Promise<SlaClockProgress> {
      try {
        return await advanceSlaClock({ db, compiledCalendars }, input);
      } catch (err) {
        throw toActivityFailure(err);
      }
    },

    /**
     * Starts a clock for the calling workflow, which hears its warnings, breach and met as
     * `SlaClockEvent` signals (awaitSlaClockEvent). The route's errors, as non-retryable failures
     * typed with their codes. Idempotent per activity: a retry finds the clock its first attempt
     * started.
     */
    async startSlaClock(input: StartSlaClockInput): Promise<{ clockId: string; dueAt: string | null }> {
      const { info } = Context.current();
      const { workflowId, runId } = info.workflowExecution!;
      try {
        const { row } = await startSlaClock(
          { db, compiledCalendars },
          { ...input, actor: `workflow:${workflowId}` },
          { waitingWorkflowId: workflowId, startKey: `${workflowId}:${runId}:${info.activityId}` },
        );
        return { clockId: row.id, dueAt: row.dueAt?.toISOString() ?? null };
      } catch (err) {
        throw toActivityFailure(err);
      }
    },
  };
}

export type SlaClockActivities = ReturnType<typeof createSlaClockActivities>;
