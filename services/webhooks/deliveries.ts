// The delivery log of an endpoint, a replay of one delivery, and the test event: each a delivery
// row with its durable process's outbox start row, written in one transaction.
import type { Db, DbOrTx } from '../../db/client';
import { enqueueStart } from '../../db/outbox';
import {
  findWebhookDelivery,
  insertWebhookDelivery,
  insertWebhookEvent,
  listWebhookAttempts,
  listWebhookDeliveries,
  type WebhookAttemptRow,
} from '../../db/queries/webhook-deliveries';
import { conflict, notFound } from '../../domain/errors';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../domain/keyset-cursor';
import { WebhookDeliveryProcess } from '../../domain/webhooks/delivery-process';
import { TEST_EVENT_TYPE } from '../../domain/webhooks/event-types';
import { getWebhookEndpoint } from './endpoints';

/** A delivery of `eventId` to the endpoint and the start row of its process. */
async function enqueueDelivery(tx: DbOrTx, p: { tenantId: string; endpointId: string; eventId: string; replayOf?: string }) {
  const delivery = await insertWebhookDelivery(tx, p);
  await enqueueStart(tx, WebhookDeliveryProcess, { tenantId: p.tenantId, deliveryId: delivery.id });
  return delivery;
}

const refuseDisabled = (endpoint: { enabled: boolean }) => {
  if (!endpoint.enabled) throw conflict('webhook-endpoint-disabled', 'The webhook endpoint is disabled; enable it first');
};

/** A `webhook.test` event to this endpoint alone, through the same process and signature as real events. */
export async function sendTestEvent(deps: { db: Db }, p: { tenantId: string; endpointId: string }) {
  return deps.db.transaction(async (tx) => {
    const endpoint = await getWebhookEndpoint(tx, { tenantId: p.tenantId, id: p.endpointId });
    refuseDisabled(endpoint);
    const event = await insertWebhookEvent(tx, {
      tenantId: p.tenantId,
      type: TEST_EVENT_TYPE,
      data: { endpointId: endpoint.id, link: `/api/webhook-endpoints/${endpoint.id}` },
    });
    return { delivery: await enqueueDelivery(tx, { tenantId: p.tenantId, endpointId: endpoint.id, eventId: event.id }), event };
  });
}

/**
 * The same event to the same endpoint again, as a new delivery (its `webhook-id` is the event's, as
 * in every attempt, so a receiver that deduplicates knows it). 409 while the delivery is PENDING or
 * its endpoint disabled.
 */
export async function replayDelivery(deps: { db: Db }, p: { tenantId: string; deliveryId: string }) {
  return deps.db.transaction(async (tx) => {
    const original = await findWebhookDelivery(tx, { tenantId: p.tenantId, id: p.deliveryId });
    if (!original) throw notFound('Webhook delivery', 'webhook-delivery-not-found');
    if (original.state === 'PENDING') throw conflict('webhook-delivery-pending', 'The delivery is still being attempted');
    refuseDisabled(await getWebhookEndpoint(tx, { tenantId: p.tenantId, id: original.endpointId }));
    return enqueueDelivery(tx, { tenantId: p.tenantId, endpointId: original.endpointId, eventId: original.eventId, replayOf: original.id });
  });
}

/**
 * One page of the endpoint's deliveries, newest first, each with its event and attempts. Read in one
 * snapshot: an attempt committing between the two reads would otherwise show in the attempt log of
 * a delivery whose count and next attempt were read before it.
 */
export function listDeliveryPage(db: Db, p: { tenantId: string; endpointId: string; limit: number; cursor?: string | undefined }) {
  return db.transaction((tx) => readDeliveryPage(tx, p), { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

async function readDeliveryPage(db: DbOrTx, p: { tenantId: string; endpointId: string; limit: number; cursor?: string | undefined }) {
  await getWebhookEndpoint(db, { tenantId: p.tenantId, id: p.endpointId });
  const rows = await listWebhookDeliveries(db, {
    tenantId: p.tenantId,
    endpointId: p.endpointId,
    limit: p.limit + 1,
    after: p.cursor ? decodeKeysetCursor(p.cursor) : undefined,
  });
  const page = rows.slice(0, p.limit);
  const attempts = await listWebhookAttempts(db, { deliveryIds: page.map((r) => r.delivery.id) });
  const byDelivery = new Map<string, WebhookAttemptRow[]>();
  for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({ ...r.delivery, event: r.event, attemptLog: byDelivery.get(r.delivery.id) ?? [] })),
    limit: p.limit,
    nextCursor: rows.length > p.limit && last ? encodeKeysetCursor({ createdAt: last.cursorAt, id: last.delivery.id }) : null,
  };
}
