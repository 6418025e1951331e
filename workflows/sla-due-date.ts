import { proxyActivities, setWorkflowOptions } from '@temporalio/workflow';
import type { CalendarActivities, SlaDueDateRequest } from '../activities/calendars';
import type { SlaResult } from '../domain/calendar/types';
import { versioningBehaviour } from './versioning-behaviour';

const { calculateSlaDueDate } = proxyActivities<CalendarActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5 },
});

/**
 * The SLA due date of a tenant's request as a process of its own; other workflows call
 * `calculateSlaDueDate` the same way (the calendar may change later, the activity result is
 * recorded in history, so replays keep the date first computed).
 */
export async function slaDueDate(request: SlaDueDateRequest): Promise<SlaResult> {
  return calculateSlaDueDate(request);
}
// PINNED: one activity (docs/releases.md).
setWorkflowOptions(versioningBehaviour('PINNED'), slaDueDate);
