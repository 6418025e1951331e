import { createAccessExpiryActivities } from '../activities/access-expiry';
import { createCalendarActivities } from '../activities/calendars';
import { createDocumentActivities } from '../activities/documents';
import { createFormActivities } from '../activities/forms';
import { createOutboundFormActivities } from '../activities/outbound-forms';
import { createOutboxActivities } from '../activities/outbox';
import { createPhoneActivities } from '../activities/phone';
import { createSignatureActivities } from '../activities/signatures';
import { createSlaClockActivities } from '../activities/sla-clocks';
import { createWebhookActivities } from '../activities/webhooks';
import { createWebhookSender } from '../integrations/webhooks/http-sender';
import { createWorkerIntegrations, type WorkerResources } from './worker-integrations';

/**
 * Every activity the platform worker registers, merged from per-capability factories over one
 * set of integrations (built here, once per call: call it once per worker process).
 */
export function createActivities(resources: WorkerResources) {
  const deps = createWorkerIntegrations(resources);
  return {
    ...createOutboxActivities(deps),
    ...createDocumentActivities(deps),
    ...createPhoneActivities(deps),
    ...createCalendarActivities(deps),
    ...createSlaClockActivities(deps),
    ...createAccessExpiryActivities(deps),
    ...createFormActivities(deps),
    ...createOutboundFormActivities(deps),
    ...createSignatureActivities(deps),
    // The worker's one webhook sender (keep-alive agents), built here like every integration.
    ...createWebhookActivities({ ...deps, webhookSender: createWebhookSender(deps.settings) }),
  };
}

export type PlatformActivities = ReturnType<typeof createActivities>;
