// One durable process per (event, endpoint): its contract, the input the outbox starts it with and
// what each attempt tells it. The event's row (migration 0027's triggers, or the test and replay
// routes) writes a delivery row and this process's outbox start row in one transaction.
import { defineProcess } from '../process-contract';

export const WEBHOOKS_CAPABILITY = 'WEBHOOKS';

export interface WebhookDeliveryInput {
  tenantId: string;
  deliveryId: string;
}

/**
 * After an attempt: wait `waitMs` and try again, or stop. The attempt (and its wait, from the
 * retry schedule with jitter or the receiver's Retry-After) is decided by the activity, so the
 * workflow holds no setting and replays the same whatever the settings become.
 */
export type WebhookAttemptOutcome = { next: 'retry'; waitMs: number } | { next: 'stop'; state: WebhookDeliveryState };

/**
 * PENDING: attempts continue. SUCCEEDED: a 2xx answer. FAILED: the schedule ran out, the endpoint
 * answered 410 (it is disabled), was disabled or deleted meanwhile, or failed for
 * `webhooks.disable-after-days`.
 */
export const WEBHOOK_DELIVERY_STATES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

export const WebhookDeliveryProcess = defineProcess<WebhookDeliveryInput>()({
  capability: WEBHOOKS_CAPABILITY,
  workflowType: 'webhookDelivery',
  tenantOf: (i) => i.tenantId,
  businessKey: (i) => i.deliveryId,
  signals: {},
});
