/**
 * The forms event rail's contract with workflows (spec Events 1): a workflow that waits on a form
 * instance (one it sent, or one bound to its task) names itself in the instance's context as
 * `waitingWorkflowId`; the correlator delivers each lifecycle event of that instance to it as the
 * signal below, through the platform outbox, so no event is lost between commit and delivery.
 */
import { signalContract } from '../process-contract';
import type { FormInstanceState } from './instance-states';

/** One lifecycle change of a form instance; `eventType` is the lower-cased new state. */
export interface FormInstanceEvent {
  /** The event row's id: a workflow that sees one twice (at-least-once delivery) can drop it. */
  eventId: string;
  instanceId: string;
  formCode: string;
  eventType: Lowercase<FormInstanceState>;
  state: FormInstanceState;
  at: string;
}

export const FormInstanceEventSignal = signalContract<FormInstanceEvent>('formInstanceEvent');

/** The instance-context key naming the workflow (by workflow id) that waits on its events. */
export const WAITING_WORKFLOW_KEY = 'waitingWorkflowId';
