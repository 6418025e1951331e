import { proxyActivities, setWorkflowOptions, sleep } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks';
import type { WebhookDeliveryInput, WebhookDeliveryState } from '../domain/webhooks/delivery-process';
import { versioningBehaviour } from './versioning-behaviour';

export type { WebhookDeliveryInput };

/**
 * One webhook event to one endpoint, durably (docs/webhooks.md "Delivery"). Started through the
 * outbox (capability WEBHOOKS, business key = delivery id) by the transaction that wrote the
 * event. Each attempt is an activity that decides what follows; the waits between attempts are
 * timers, so a worker that dies mid-schedule loses nothing: another picks the process up where it
 * stood. The activity retries only when it could not record its outcome (database, secrets); the
 * outcome that stops the process closes its outbox row in the same transaction.
 */
export async function webhookDelivery(input: WebhookDeliveryInput): Promise<WebhookDeliveryState> {
  const { attemptWebhookDelivery } = proxyActivities<WebhookActivities>({
    // The POST is bounded by webhooks.timeout-ms (at most 2 min); the rest is a few queries. The
    // attempt heartbeats every 5 s (activities/heartbeat.ts): one on a worker that died runs again
    // after 20 s, and a repeat of an attempt already recorded sends nothing.
    startToCloseTimeout: '5 minutes',
    heartbeatTimeout: '20 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
  });
  let state: WebhookDeliveryState = 'PENDING';
  for (let attempt = 1; state === 'PENDING'; attempt++) {
    const outcome = await attemptWebhookDelivery({ tenantId: input.tenantId, deliveryId: input.deliveryId, attempt });
    if (outcome.next === 'stop') state = outcome.state;
    else await sleep(Math.max(1, outcome.waitMs));
  }
  return state;
}

// A failing endpoint keeps its deliveries waiting for about 28 hours of retries (the default
// schedule): they must not hold an old build alive for that, so each moves to the current build at
// its next task. The loop (attempt, then a timer) is the whole history the new code must replay.
setWorkflowOptions(versioningBehaviour('AUTO_UPGRADE'), webhookDelivery);
