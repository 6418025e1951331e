/**
 * The durable intake of one submitted form instance (spec "Forms": submit, durable process
 * start). Its outbox start row is the spec's FormSubmissionOutbox (docs/forms.md "Durable intake").
 */
import { defineProcess } from '../process-contract';

export const FORMS_CAPABILITY = 'FORMS';

export interface FormIntakeProcessInput {
  tenantId: string;
  instanceId: string;
}

/** What a `workflow:<type>` submission handling starts as a child. */
export interface FormSubmission {
  tenantId: string;
  instanceId: string;
  definitionCode: string;
  version: number;
  data: Record<string, unknown>;
}

export const FormIntakeProcess = defineProcess<FormIntakeProcessInput>()({
  capability: FORMS_CAPABILITY,
  workflowType: 'formIntake',
  tenantOf: (i) => i.tenantId,
  businessKey: (i) => i.instanceId,
  signals: {},
});

/** The spec's processBusinessKey: `SM-` and the instance id. */
export const processBusinessKeyOf = (instanceId: string) => `SM-${instanceId}`;

/**
 * The case a submission's documents belong to: the processRef its context names (an embed
 * session's, or one a sender gave), else its process business key.
 */
export const caseProcessRefOf = (instanceId: string, context: { processRef?: unknown }): string =>
  typeof context.processRef === 'string' && context.processRef ? context.processRef : processBusinessKeyOf(instanceId);
