import type { SlaResult } from '../domain/calendar/index';
import type { SlaDueDateRequest } from '../domain/calendar/sla-process';
import { calculateTenantSla, type SlaCalculation } from '../services/calendars/sla';
import type { ActivityDeps, CoreActivityDeps } from './deps';
import { toActivityFailure } from './failures';

/** Input of calculateSlaDueDate: the tenant plus either form of the SLA request. */
export type { SlaDueDateRequest };

export function createCalendarActivities({ db, compiledCalendars }: CoreActivityDeps & Pick<ActivityDeps, 'compiledCalendars'>) {
  return {
    /**
     * The due date `POST /api/sla/calculate` gives, for workflows. A business failure (unknown
     * calendar or association, inactive, unreachable budget, bad input) is a non-retryable
     * ApplicationFailure whose type is the API's error code; database trouble retries.
     */
    async calculateSlaDueDate(request: SlaDueDateRequest): Promise<SlaResult> {
      const { tenantId, ...calculation } = request;
      try {
        return await calculateTenantSla(db, tenantId, calculation as SlaCalculation, compiledCalendars);
      } catch (err) {
        throw toActivityFailure(err);
      }
    },
  };
}

export type CalendarActivities = ReturnType<typeof createCalendarActivities>;
