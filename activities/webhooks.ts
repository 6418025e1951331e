import { Context } from '@temporalio/activity';
import type { WebhookAttemptOutcome } from '../domain/webhooks/delivery-process';
import type { WebhookSender } from '../integrations/webhooks/http-sender';
import { attemptWebhookDelivery } from '../services/webhooks/attempt-delivery';
import type { CoreActivityDeps } from './deps';
import { toActivityFailure } from './failures';

/** The webhook activities' integrations: the worker's one sender, built by its composition root. */
export interface WebhookActivityDeps extends CoreActivityDeps {
  webhookSender: WebhookSender;
}

/**
 * How often an attempt tells Temporal its worker is alive; the workflow's heartbeat timeout is a
 * few of these, so an attempt on a worker that died is run again in seconds, not after its
 * start-to-close timeout (which must cover the POST's own timeout, up to 2 minutes).
 */
const WEBHOOK_HEARTBEAT_MS = 5_000;

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
      const activity = Context.current();
      const alive = setInterval(() => activity.heartbeat(), WEBHOOK_HEARTBEAT_MS);
      try {
        return await attemptWebhookDelivery({ db, settings, sender: webhookSender, logger }, input);
      } catch (err) {
        throw toActivityFailure(err);
      } finally {
        clearInterval(alive);
      }
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
