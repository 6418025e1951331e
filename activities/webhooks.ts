import type { WebhookAttemptOutcome } from '../domain/webhooks/delivery-process';
import type { WebhookSender } from '../integrations/webhooks/http-sender';
import { attemptWebhookDelivery } from '../services/webhooks/attempt-delivery';
import type { CoreActivityDeps } from './deps';
import { toActivityFailure } from './failures';
import { whileHeartbeating } from './heartbeat';

/** The webhook activities' integrations: the worker's one sender, built by its composition root. */
export interface WebhookActivityDeps extends CoreActivityDeps {
  webhookSender: WebhookSender;
}

export function createWebhookActivities(deps: WebhookActivityDeps) {
  const { db, settings, webhookSender } = deps;
  const logger = deps.logger.child({ component: 'webhooks' });
  return {
    /**
     * One attempt of a delivery, recorded, and what the process does next. An HTTP failure is an
     * outcome, never a thrown error; a thrown one (database, unreadable secret) is Temporal's to retry,
     * and the repeat POSTs under the same attempt number and webhook-id. A repeat of an attempt
     * already recorded sends nothing: it returns the wait that attempt recorded.
     */
    async attemptWebhookDelivery(input: { tenantId: string; deliveryId: string; attempt: number }): Promise<WebhookAttemptOutcome> {
      try {
        return await whileHeartbeating(() => attemptWebhookDelivery({ db, settings, sender: webhookSender, logger }, input));
      } catch (err) {
        throw toActivityFailure(err);
      }
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
