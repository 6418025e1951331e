import { createRoute, z } from '@hono/zod-openapi';
import { renderEventData, webhookBody } from '../../domain/webhooks/payload';
import { WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE } from '../../domain/webhooks/event-types';
import { listDeliveryPage, replayDelivery, sendTestEvent } from '../../services/webhooks/deliveries';
import { tenantIdentity, userIdentity } from '../middleware/identity';
import { createRouter, jsonContent, problemResponses, uuidParam } from '../openapi';
import { asWebhookAdmin } from './endpoint-routes';
import { attemptView, DeliveryPage, deliveryView, EventTypeList, PAGE_SIZE_CAP, PageQuery, WebhookDelivery } from './schemas';

const tags = ['Webhooks'];
const idParams = z.object({ id: uuidParam() });
const EXAMPLE_TIMESTAMP = new Date('2026-05-04T09:30:00.000Z');

/** The delivery log, replay, the test event and the event catalog (docs/webhooks.md). */
export function deliveryRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/webhook-endpoints/{id}/deliveries',
      tags,
      summary: `The endpoint's deliveries, newest first (keyset-paged; page size capped at ${PAGE_SIZE_CAP}): each event and its attempts (time, status, duration, the first 4 KiB of the answer, next attempt)`,
      middleware: asWebhookAdmin,
      request: { params: idParams, query: PageQuery },
      responses: { 200: jsonContent(DeliveryPage), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const base = c.get('deps').settings['public.base-url'];
      const page = await listDeliveryPage(c.get('deps').db, {
        tenantId: c.get('caller').tenantId,
        endpointId: c.req.valid('param').id,
        limit: Math.min(q.limit, PAGE_SIZE_CAP),
        cursor: q.cursor,
      });
      const items = page.items.map((d) => ({
        ...deliveryView(d),
        event: { id: d.event.id, type: d.event.type, createdAt: d.event.createdAt.toISOString(), data: renderEventData(d.event.data, base) },
        attempts: d.attemptLog.map(attemptView),
      }));
      return c.json({ items, limit: page.limit, nextCursor: page.nextCursor }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/webhook-deliveries/{id}/replay',
      tags,
      summary: 'Deliver the same event to the same endpoint again (a new delivery, the same `webhook-id`)',
      middleware: asWebhookAdmin,
      request: { params: idParams },
      responses: { 202: jsonContent(WebhookDelivery, 'Queued'), ...problemResponses(400, 403, 404, 409) },
    }),
    async (c) => c.json(deliveryView(await replayDelivery(c.get('deps'), { tenantId: c.get('caller').tenantId, deliveryId: c.req.valid('param').id })), 202),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/webhook-endpoints/{id}/test',
      tags,
      summary: `Send a \`${TEST_EVENT_TYPE}\` event to this endpoint, through the same process and signature as real events`,
      middleware: asWebhookAdmin,
      request: { params: idParams },
      responses: { 202: jsonContent(WebhookDelivery, 'Queued'), ...problemResponses(400, 403, 404, 409) },
    }),
    async (c) => {
      const { delivery } = await sendTestEvent(c.get('deps'), { tenantId: c.get('caller').tenantId, endpointId: c.req.valid('param').id });
      return c.json(deliveryView(delivery), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/webhook-event-types',
      tags,
      summary: 'The event catalog: every type, what it means and an example of what a receiver gets (any member or operator)',
      middleware: [userIdentity, tenantIdentity],
      responses: { 200: jsonContent(EventTypeList), ...problemResponses(400, 403, 404) },
    }),
    async (c) => {
      const base = c.get('deps').settings['public.base-url'];
      const list = Object.entries(WEBHOOK_EVENT_TYPES).map(([type, d]) => ({
        type,
        description: d.description,
        subscribable: type !== TEST_EVENT_TYPE,
        example: JSON.parse(webhookBody({ type, data: d.example, createdAt: EXAMPLE_TIMESTAMP }, base)) as { type: string; timestamp: string; data: Record<string, unknown> },
      }));
      return c.json(list, 200);
    },
  );

  return app;
}
