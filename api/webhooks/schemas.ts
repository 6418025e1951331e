import { z } from '@hono/zod-openapi';
import type { WebhookEndpointRow } from '../../db/queries/webhook-endpoints';
import { WEBHOOK_DELIVERY_STATES } from '../../domain/webhooks/delivery-process';
import { SUBSCRIBABLE_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/event-types';
import { int32Param, text } from '../vocabulary';

export const PAGE_SIZE_CAP = 200;
export const DEFAULT_PAGE_SIZE = 50;

const iso = z.string().openapi({ format: 'date-time' });
const isoOrNull = iso.nullable();

const absoluteUrl = (v: string) => {
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
};

const endpointUrl = text({ max: 2048 })
  .refine(absoluteUrl, 'must be an absolute https URL')
  .openapi({ example: 'https://hooks.example.com/platform', description: 'https (http only with `webhooks.allow-http`); its host must not resolve to a private, loopback, link-local or reserved address' });
const description = text({ max: 500, min: 0 }).refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must not contain control characters');

export const SubscribableEventType = z.enum(SUBSCRIBABLE_EVENT_TYPES).openapi('WebhookEventType');
const eventTypes = z
  .array(SubscribableEventType)
  .min(1)
  .max(SUBSCRIBABLE_EVENT_TYPES.length * 2)
  .nullable()
  .openapi({ description: 'The event types delivered to the endpoint; null (or absent at creation): every type' });

export const EndpointBody = z
  .object({ url: endpointUrl, description: description.nullable().optional(), eventTypes: eventTypes.optional(), enabled: z.boolean().optional() })
  .strict()
  .openapi('WebhookEndpointBody');

export const EndpointPatch = z
  .object({ url: endpointUrl.optional(), description: description.nullable().optional(), eventTypes: eventTypes.optional(), enabled: z.boolean().optional() })
  .strict()
  .openapi('WebhookEndpointPatch', { description: 'Fields to change; enabling clears `disabledReason` and the failure streak' });

export const WebhookEndpoint = z
  .object({
    id: z.string().uuid(),
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: z.array(z.string()).nullable().openapi({ description: 'null: every type' }),
    enabled: z.boolean(),
    disabledReason: z.string().nullable().openapi({ description: 'Why the platform disabled the endpoint (410 Gone, or failing for `webhooks.disable-after-days`); null when enabled or disabled by an owner' }),
    disabledAt: isoOrNull,
    failingSince: isoOrNull.openapi({ description: 'First failed attempt since the last success; null while deliveries succeed' }),
    secretRotatedAt: isoOrNull,
    previousSecretExpiresAt: isoOrNull.openapi({ description: 'Until then deliveries carry a signature with the previous secret too' }),
    createdBy: z.string(),
    createdAt: iso,
    updatedAt: iso,
  })
  .openapi('WebhookEndpoint');

const secret = z.string().openapi({ description: 'The signing secret (`whsec_` + base64 of 32 bytes), shown this once', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7TF3ISrPWx8=' });

export const EndpointCreated = WebhookEndpoint.extend({ secret }).openapi('WebhookEndpointCreated');

export const SecretRotated = z
  .object({ secret, endpoint: WebhookEndpoint })
  .openapi('WebhookSecretRotated');

export const EndpointPage = z
  .object({ items: z.array(WebhookEndpoint), limit: z.number().int(), nextCursor: z.string().nullable() })
  .openapi('WebhookEndpointPage');

export const PageQuery = z.object({
  limit: int32Param()
    .default(DEFAULT_PAGE_SIZE)
    .openapi({ description: `Page size, default ${DEFAULT_PAGE_SIZE}; values above ${PAGE_SIZE_CAP} are served as ${PAGE_SIZE_CAP}` }),
  cursor: text({ max: 200 }).optional().openapi({ description: '`nextCursor` of the previous page' }),
});

const EventView = z
  .object({ id: z.string().uuid().openapi({ description: 'Also the `webhook-id` of every attempt' }), type: z.string(), createdAt: iso, data: z.record(z.string(), z.unknown()) })
  .openapi('WebhookEvent');

const Attempt = z
  .object({
    attempt: z.number().int(),
    attemptedAt: iso,
    statusCode: z.number().int().nullable().openapi({ description: 'null: no answer (see `error`)' }),
    durationMs: z.number().int(),
    responseBody: z.string().nullable().openapi({ description: 'The first 4 KiB of the answer' }),
    error: z.string().nullable(),
    nextAttemptAt: isoOrNull,
  })
  .openapi('WebhookAttempt');

export const WebhookDelivery = z
  .object({
    id: z.string().uuid(),
    endpointId: z.string().uuid(),
    replayOf: z.string().uuid().nullable(),
    state: z.enum(WEBHOOK_DELIVERY_STATES),
    failure: z.string().nullable().openapi({ description: 'Why a FAILED delivery stopped' }),
    attemptCount: z.number().int(),
    nextAttemptAt: isoOrNull,
    createdAt: iso,
    updatedAt: iso,
  })
  .openapi('WebhookDelivery');

export const DeliveryPage = z
  .object({
    items: z.array(WebhookDelivery.extend({ event: EventView, attempts: z.array(Attempt) })),
    limit: z.number().int(),
    nextCursor: z.string().nullable(),
  })
  .openapi('WebhookDeliveryPage');

export const EventTypeList = z
  .array(
    z.object({
      type: z.enum(Object.keys(WEBHOOK_EVENT_TYPES) as [string, ...string[]]),
      description: z.string(),
      subscribable: z.boolean(),
      example: z.object({ type: z.string(), timestamp: iso, data: z.record(z.string(), z.unknown()) }),
    }),
  )
  .openapi('WebhookEventTypes');

const isoOf = (d: Date | null) => (d ? d.toISOString() : null);

/** An endpoint as every answer shows it: never its secret. */
export const endpointView = (r: WebhookEndpointRow) => ({
  id: r.id,
  url: r.url,
  description: r.description,
  eventTypes: r.eventTypes,
  enabled: r.enabled,
  disabledReason: r.disabledReason,
  disabledAt: isoOf(r.disabledAt),
  failingSince: isoOf(r.failingSince),
  secretRotatedAt: isoOf(r.secretRotatedAt),
  previousSecretExpiresAt: isoOf(r.previousSecretExpiresAt),
  createdBy: r.createdBy,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export const deliveryView = (d: {
  id: string;
  endpointId: string;
  replayOf: string | null;
  state: (typeof WEBHOOK_DELIVERY_STATES)[number];
  failure: string | null;
  attempts: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}) => ({
  id: d.id,
  endpointId: d.endpointId,
  replayOf: d.replayOf,
  state: d.state,
  failure: d.failure,
  attemptCount: d.attempts,
  nextAttemptAt: isoOf(d.nextAttemptAt),
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});

export const attemptView = (a: {
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
  nextAttemptAt: Date | null;
}) => ({
  attempt: a.attempt,
  attemptedAt: a.attemptedAt.toISOString(),
  statusCode: a.statusCode,
  durationMs: a.durationMs,
  responseBody: a.responseBody,
  error: a.error,
  nextAttemptAt: isoOf(a.nextAttemptAt),
});
