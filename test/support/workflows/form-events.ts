// Test-only workflows (their own workflowsPath) beside the platform's formIntake: a subscriber the
// event rail starts, a workflow that waits on an instance's events, and a submission handler.
import { condition, defineSignal, setHandler, workflowInfo } from '@temporalio/workflow';
import type { FormEventSubscriberInput } from '../../../domain/forms/event-rail';
import type { FormSubmission } from '../../../domain/forms/intake-process';
import { FormInstanceEventSignal, type FormInstanceEvent } from '../../../domain/forms/instance-events';

export { formIntake } from '../../../workflows/form-intake';

export async function formEventRecorder(input: FormEventSubscriberInput): Promise<FormEventSubscriberInput> {
  return input;
}

const instanceEvent = defineSignal<[FormInstanceEvent]>(FormInstanceEventSignal.name);

/** Collects the instance's events (deduped by eventId) until one announces `until`. */
export async function formEventWaiter(input: { until: FormInstanceEvent['state'] }): Promise<FormInstanceEvent[]> {
  const events: FormInstanceEvent[] = [];
  setHandler(instanceEvent, (e) => {
    if (!events.some((seen) => seen.eventId === e.eventId)) events.push(e);
  });
  await condition(() => events.some((e) => e.state === input.until));
  return events;
}

export async function submissionReceiver(submission: FormSubmission): Promise<{ received: FormSubmission; runId: string }> {
  return { received: submission, runId: workflowInfo().runId };
}
