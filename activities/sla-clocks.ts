import type { SlaClockProgress } from '../domain/calendar/sla-clock-process';
import { advanceSlaClock } from '../services/calendars/sla-clocks';
import type { ActivityDeps, CoreActivityDeps } from './deps';
import { toActivityFailure } from './failures';

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
  };
}

export type SlaClockActivities = ReturnType<typeof createSlaClockActivities>;
