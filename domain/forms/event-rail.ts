/**
 * The forms event rail (spec FormEventOutbox, Events 1; docs/forms.md "Event rail"). QUEUED: written
 * with the lifecycle change. SENT: its deliveries (subscribed workflow starts, the signal to the
 * waiting workflow) are platform outbox rows. SKIPPED: nobody subscribed or waiting. FAILED: the
 * deliveries could not be enqueued within `forms.event-rail.max-attempts`.
 */
import { FORM_INSTANCE_STATES, type FormInstanceState } from './instance-states';
import type { FormInstanceEvent } from './instance-events';
import { defineProcess, type KeyedProcessContract } from '../process-contract';
import { FORMS_CAPABILITY } from './intake-process';

export const FORM_EVENT_STATES = ['QUEUED', 'SENT', 'SKIPPED', 'FAILED'] as const;
export type FormEventState = (typeof FORM_EVENT_STATES)[number];

export const FORM_EVENT_TYPES = FORM_INSTANCE_STATES.map((s) => s.toLowerCase() as Lowercase<FormInstanceState>);

/** payloadJson, built by the trigger: the instance's identity and states only, never its data or recipient. */
export interface FormEventPayload {
  instanceId: string;
  formCode: string;
  definitionVersion: number;
  state: FormInstanceState;
  /** null for the event of the instance's creation. */
  previousState: FormInstanceState | null;
  at: string;
}

/** What a subscribed workflow receives as its one argument. */
export interface FormEventSubscriberInput {
  tenantId: string;
  subscriptionId: string;
  event: FormInstanceEvent & { previousState: FormInstanceState | null; definitionVersion: number };
}

/**
 * The process a subscription starts: its workflow type is the subscription's (data), so the
 * contract is made per subscription. One start per event and subscription (the business key), so
 * a repeated delivery of the event starts nothing new.
 */
export const subscribedProcess = (workflowType: string): KeyedProcessContract<FormEventSubscriberInput> =>
  defineProcess<FormEventSubscriberInput>()({
    capability: FORMS_CAPABILITY,
    workflowType,
    tenantOf: (i) => i.tenantId,
    businessKey: (i) => `event:${i.event.eventId}:${i.subscriptionId}`,
    signals: {},
  });
