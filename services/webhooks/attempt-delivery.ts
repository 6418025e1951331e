// One attempt of a webhook delivery (docs/webhooks.md "Delivery"), as its durable process asks for
// it: sign, POST to the checked address, record the attempt, and decide: done, or wait and retry.
// A 2xx ends the endpoint's failure streak; a 410 disables the endpoint; any other answer or none
// retries on the schedule (a 429 or 503's Retry-After lengthening the wait) until it runs out or
// the streak outlasts `webhooks.disable-after-days`, which disables the endpoint too.
import type { Logger } from 'pino';
import type { Db, DbOrTx } from '../../db/client';
import { closeOutbox } from '../../db/outbox';
import { loadWebhookAttempt, recordWebhookAttempt, settleWebhookDelivery } from '../../db/queries/webhook-deliveries';
import { disableWebhookEndpoint, holdWebhookEndpoint, markWebhookEndpointFailing, markWebhookEndpointHealthy } from '../../db/queries/webhook-endpoints';
import type { Settings } from '../../domain/settings';
import { WEBHOOKS_CAPABILITY, type WebhookAttemptOutcome } from '../../domain/webhooks/delivery-process';
import { webhookBody } from '../../domain/webhooks/payload';
import { classifyStatus, honoursRetryAfter, parseRetryAfter, retryWait } from '../../domain/webhooks/retry-policy';
import { signatureHeader } from '../../domain/webhooks/signing';
import type { WebhookAnswer, WebhookSender } from '../../integrations/webhooks/http-sender';
import { signingSecrets } from './endpoint-secrets';

export interface AttemptDeps {
  db: Db;
  settings: Settings;
  sender: WebhookSender;
  logger?: Logger;
  /** In [0, 1): the retry jitter's draw. */
  random?: () => number;
}

const DAY_MS = 86_400_000;

export async function attemptWebhookDelivery(
  deps: AttemptDeps,
  p: { tenantId: string; deliveryId: string; attempt: number },
): Promise<WebhookAttemptOutcome> {
  const { db, settings } = deps;
  // The process ends with the outcome that stops it: its outbox row is closed in that transaction.
  const closeRow = (tx: DbOrTx) => closeOutbox(tx, WEBHOOKS_CAPABILITY, p.tenantId, p.deliveryId);
  const loaded = await loadWebhookAttempt(db, p);
  if (!loaded) {
    // The endpoint was deleted, and its deliveries with it.
    await closeRow(db);
    return { next: 'stop', state: 'FAILED' };
  }
  const { delivery, event, endpoint } = loaded;
  if (delivery.state !== 'PENDING') {
    // A repeated activity after the delivery settled.
    await closeRow(db);
    return { next: 'stop', state: delivery.state };
  }
  if (!endpoint.enabled) {
    return db.transaction(async (tx) => {
      await settleWebhookDelivery(tx, { id: delivery.id, state: 'FAILED', attempts: delivery.attempts, nextAttemptAt: null, failure: 'the endpoint is disabled' });
      await closeRow(tx);
      return { next: 'stop', state: 'FAILED' } as const;
    });
  }

  if (delivery.attempts >= p.attempt) {
    // This attempt is recorded, but its outcome never reached the process (the worker died between
    // the commit and its report): the receiver has had it, so it is not sent again; the process
    // waits what remains of the wait it recorded.
    return { next: 'retry', waitMs: Math.max(0, (delivery.nextAttemptAt?.getTime() ?? 0) - Date.now()) };
  }

  const attemptedAt = new Date();
  const body = webhookBody(event, settings['public.base-url']);
  const secrets = await signingSecrets(db, settings, { tenantId: p.tenantId, endpointId: endpoint.id, previousSecretExpiresAt: endpoint.previousSecretExpiresAt, now: attemptedAt });
  const answer = await deps.sender.send({
    url: endpoint.url,
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(attemptedAt.getTime() / 1000)),
      'webhook-signature': signatureHeader(secrets, event.id, attemptedAt, body),
    },
  });
  const verdict = answer.statusCode === null ? 'retry' : classifyStatus(answer.statusCode);
  // Successes at debug; a failed attempt is what an operator looks for. Never the URL (it may carry a token).
  deps.logger?.[verdict === 'delivered' ? 'debug' : 'info'](
    { deliveryId: delivery.id, endpointId: endpoint.id, eventType: event.type, attempt: p.attempt, statusCode: answer.statusCode, error: answer.error, durationMs: answer.durationMs },
    'webhook attempt',
  );

  return db.transaction(async (tx) => {
    // The endpoint may have been deleted during the POST: then there is nothing to record.
    if (!(await holdWebhookEndpoint(tx, { id: endpoint.id }))) {
      await closeRow(tx);
      return { next: 'stop', state: 'FAILED' } as const;
    }
    const record = (nextAttemptAt: Date | null) =>
      recordWebhookAttempt(tx, {
        deliveryId: delivery.id,
        tenantId: p.tenantId,
        attempt: p.attempt,
        attemptedAt,
        statusCode: answer.statusCode,
        durationMs: answer.durationMs,
        responseBody: answer.body,
        error: answer.error,
        nextAttemptAt,
      });
    const settle = async (state: 'SUCCEEDED' | 'FAILED', failure: string | null): Promise<WebhookAttemptOutcome> => {
      await record(null);
      await settleWebhookDelivery(tx, { id: delivery.id, state, attempts: p.attempt, nextAttemptAt: null, failure });
      await closeRow(tx);
      return { next: 'stop', state };
    };

    if (verdict === 'delivered') {
      await markWebhookEndpointHealthy(tx, { id: endpoint.id });
      return settle('SUCCEEDED', null);
    }
    if (verdict === 'gone') {
      await disableWebhookEndpoint(tx, { id: endpoint.id, reason: `The endpoint answered 410 Gone on ${attemptedAt.toISOString()}; it asked for no more deliveries.` });
      return settle('FAILED', 'the endpoint answered 410 Gone and was disabled');
    }
    const failingSince = (await markWebhookEndpointFailing(tx, { id: endpoint.id, at: attemptedAt })) ?? attemptedAt;
    const days = settings['webhooks.disable-after-days'];
    if (attemptedAt.getTime() - failingSince.getTime() >= days * DAY_MS) {
      await disableWebhookEndpoint(tx, {
        id: endpoint.id,
        reason: `Every delivery attempt failed for ${days} day(s), since ${failingSince.toISOString()}; the last answer was ${describeAnswer(answer)}.`,
      });
      return settle('FAILED', `the endpoint failed for ${days} day(s) and was disabled`);
    }
    const waitMs = nextWait(settings, p.attempt, answer, attemptedAt, deps.random ?? Math.random);
    if (waitMs === null) return settle('FAILED', `no answer in 2xx after ${p.attempt} attempt(s); the retry schedule ran out`);
    const nextAttemptAt = new Date(attemptedAt.getTime() + waitMs);
    await record(nextAttemptAt);
    await settleWebhookDelivery(tx, { id: delivery.id, state: 'PENDING', attempts: p.attempt, nextAttemptAt, failure: null });
    return { next: 'retry', waitMs };
  });
}

/** The schedule's jittered wait, lengthened to a 429 or 503's Retry-After; null when the schedule ran out. */
function nextWait(settings: Settings, attempt: number, answer: WebhookAnswer, now: Date, random: () => number): number | null {
  const scheduled = retryWait(settings['webhooks.retry-schedule'], attempt, settings['webhooks.retry-jitter'], random());
  if (scheduled === null) return null;
  const asked = answer.statusCode !== null && honoursRetryAfter(answer.statusCode) ? parseRetryAfter(answer.retryAfter, now) : null;
  return asked === null ? scheduled : Math.max(scheduled, asked);
}

const describeAnswer = (a: WebhookAnswer) => (a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? 'no answer'));
