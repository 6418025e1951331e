// The SLA due date of a tenant's request as a process of its own (other workflows call the
// calculateSlaDueDate activity directly). Started by its caller under an id of its own.
import { defineProcess } from '../process-contract';
import type { SlaBudget } from './types';

interface Received {
  /** Local date-time (read in receivedTimezone) or an instant with an offset. */
  receivedDateTime: string;
  receivedTimezone?: string;
}

/** The two forms of an SLA request: an explicit calendar and budget, or a process association. */
export type SlaCalculation =
  | (Received & { calendarCode: string; sla: SlaBudget })
  | (Received & { processDefinitionKey: string });

export type SlaDueDateRequest = SlaCalculation & { tenantId: string };

export const SlaDueDateProcess = defineProcess<SlaDueDateRequest>()({
  capability: 'SLA',
  workflowType: 'slaDueDate',
  tenantOf: (r) => r.tenantId,
  businessKey: null,
  signals: {},
});
