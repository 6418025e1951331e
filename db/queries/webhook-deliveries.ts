// Webhook events, their deliveries (one per event and endpoint) and the deliveries' attempts.
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { KeysetPosition } from '../../domain/keyset-cursor';
import type { WebhookDeliveryState } from '../../domain/webhooks/delivery-process';
import type { DbOrTx } from '../client';
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints, webhookEvents } from '../schema/webhooks';
import { afterKeyset, keysetTimestamp } from './keyset';

export type WebhookEventRow = typeof webhookEvents.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookDeliveryAttempts.$inferSelect;

export async function insertWebhookEvent(db: DbOrTx, p: { tenantId: string; type: string; data: Record<string, unknown> }): Promise<WebhookEventRow> {
  const [row] = await db.insert(webhookEvents).values(p).returning();
  return row!;
}

export async function insertWebhookDelivery(
  db: DbOrTx,
  p: { tenantId: string; endpointId: string; eventId: string; replayOf?: string | null },
): Promise<WebhookDeliveryRow> {
  const [row] = await db.insert(webhookDeliveries).values(p).returning();
  return row!;
}

export async function findWebhookDelivery(db: DbOrTx, p: { tenantId: string; id: string }): Promise<WebhookDeliveryRow | null> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.tenantId, p.tenantId), eq(webhookDeliveries.id, p.id)));
  return row ?? null;
}

/** What one attempt needs: the delivery, its event and its endpoint; null when the endpoint (and so the delivery) was deleted. */
export async function loadWebhookAttempt(db: DbOrTx, p: { tenantId: string; deliveryId: string }) {
  const [row] = await db
    .select({
      delivery: { id: webhookDeliveries.id, state: webhookDeliveries.state, attempts: webhookDeliveries.attempts, nextAttemptAt: webhookDeliveries.nextAttemptAt },
      event: { id: webhookEvents.id, type: webhookEvents.type, data: webhookEvents.data, createdAt: webhookEvents.createdAt },
      endpoint: {
        id: webhookEndpoints.id,
        url: webhookEndpoints.url,
        enabled: webhookEndpoints.enabled,
        previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
      },
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.tenantId, p.tenantId), eq(webhookDeliveries.id, p.deliveryId)));
  return row ?? null;
}

export interface WebhookAttemptRecord {
  deliveryId: string;
  tenantId: string;
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
  nextAttemptAt: Date | null;
}

/** One attempt; a repeated activity (its worker died after the POST) writes its attempt again. */
export async function recordWebhookAttempt(db: DbOrTx, a: WebhookAttemptRecord): Promise<void> {
  const { deliveryId: _d, tenantId: _t, attempt: _a, ...answer } = a;
  await db
    .insert(webhookDeliveryAttempts)
    .values(a)
    .onConflictDoUpdate({ target: [webhookDeliveryAttempts.deliveryId, webhookDeliveryAttempts.attempt], set: answer });
}

/** The delivery after an attempt: still PENDING with its next attempt, or settled (with why, when FAILED). */
export async function settleWebhookDelivery(
  db: DbOrTx,
  p: { id: string; state: WebhookDeliveryState; attempts: number; nextAttemptAt: Date | null; failure: string | null },
): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ state: p.state, attempts: p.attempts, nextAttemptAt: p.nextAttemptAt, failure: p.failure, updatedAt: sql`now()` })
    .where(eq(webhookDeliveries.id, p.id));
}

/** A page of an endpoint's deliveries, newest first, each with its event. */
export async function listWebhookDeliveries(
  db: DbOrTx,
  p: { tenantId: string; endpointId: string; limit: number; after?: KeysetPosition | undefined },
) {
  const where: SQL[] = [eq(webhookDeliveries.tenantId, p.tenantId), eq(webhookDeliveries.endpointId, p.endpointId)];
  if (p.after) where.push(afterKeyset(webhookDeliveries, p.after, 'desc'));
  return db
    .select({
      delivery: webhookDeliveries,
      event: { id: webhookEvents.id, type: webhookEvents.type, data: webhookEvents.data, createdAt: webhookEvents.createdAt },
      cursorAt: keysetTimestamp(webhookDeliveries.createdAt),
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(...where))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(p.limit);
}

/** The attempts of these deliveries, in order. */
export async function listWebhookAttempts(db: DbOrTx, p: { deliveryIds: string[] }): Promise<WebhookAttemptRow[]> {
  if (p.deliveryIds.length === 0) return [];
  return db
    .select()
    .from(webhookDeliveryAttempts)
    .where(inArray(webhookDeliveryAttempts.deliveryId, p.deliveryIds))
    .orderBy(asc(webhookDeliveryAttempts.deliveryId), asc(webhookDeliveryAttempts.attempt));
}
