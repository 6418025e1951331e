import { ApplicationFailure } from '@temporalio/activity';
import type { SlaResult } from '../domain/calendar/index';
import { AppError } from '../domain/errors';
import type { SlaDueDateRequest } from '../domain/calendar/sla-process';
import { calculateTenantSla, type SlaCalculation } from '../services/calendars/sla';
import type { ActivityDeps } from './deps';

/** Input of calculateSlaDueDate: the tenant plus either form of the SLA request. */
export type { SlaDueDateRequest };

export function createCalendarActivities({ db }: ActivityDeps) {
  return {
    /**
     * The due date `POST /api/sla/calculate` gives, for workflows. A business failure (unknown
     * calendar or association, inactive, unreachable budget, bad input) is a non-retryable
     * ApplicationFailure whose type is the API's error code; database trouble retries.
     */
    async calculateSlaDueDate(request: SlaDueDateRequest): Promise<SlaResult> {
      const { tenantId, ...calculation } = request;
      try {
        return await calculateTenantSla(db, tenantId, calculation as SlaCalculation);
      } catch (err) {
        if (err instanceof AppError && err.status < 500) {
          throw ApplicationFailure.nonRetryable(err.detail, err.code, { status: err.status });
        }
        throw err;
      }
    },
  };
}

export type CalendarActivities = ReturnType<typeof createCalendarActivities>;
