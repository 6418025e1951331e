import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { WEBHOOK_DELIVERY_STATES } from '../../domain/webhooks/delivery-process';
import { tenants } from './access';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A tenant's webhook endpoint (docs/webhooks.md). Its signing secrets live sealed in
 * `tenant_secrets` (names `webhook:<id>` and, during a rotation, `webhook:<id>:previous` until
 * `previousSecretExpiresAt`). `eventTypes` null means every type. `failingSince`: the first failed
 * attempt since the last success; `disabledReason` tells the owners why the platform disabled it.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    eventTypes: text('event_types').array(),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    disabledAt: at('disabled_at'),
    failingSince: at('failing_since'),
    secretRotatedAt: at('secret_rotated_at'),
    previousSecretExpiresAt: at('previous_secret_expires_at'),
    createdBy: text('created_by').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_tenant_idx').on(t.tenantId, t.createdAt, t.id)],
);

/** One event, as the transaction that made it true wrote it; `data` is small (ids, states, a link path), never personal data. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_events_tenant_idx').on(t.tenantId, t.createdAt)],
);

/** One (event, endpoint) pair and its durable process (outbox business key = id); a replay is a new row. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id').notNull(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    replayOf: uuid('replay_of'),
    state: text('state', { enum: WEBHOOK_DELIVERY_STATES }).notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    /** Why a FAILED delivery stopped (no personal data). */
    failure: text('failure'),
    nextAttemptAt: at('next_attempt_at'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
);

/** One HTTP attempt of a delivery: when, the answer's status (null: no answer), how long, the first 4 KiB of the body. */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id').notNull(),
    attempt: integer('attempt').notNull(),
    attemptedAt: at('attempted_at').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    responseBody: text('response_body'),
    /** No answer: a network error, a time-out, or a refused destination (words, never an address). */
    error: text('error'),
    nextAttemptAt: at('next_attempt_at'),
  },
  (t) => [uniqueIndex('webhook_delivery_attempts_attempt_idx').on(t.deliveryId, t.attempt)],
);
