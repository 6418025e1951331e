// A tenant's webhook endpoints (docs/webhooks.md "Endpoints"): created with a secret shown once,
// listed, read, changed, deleted. A URL is checked where it is given (creation, change) and again
// at every attempt.
import type { Db, DbOrTx } from '../../db/client';
import {
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
  type WebhookEndpointPatch,
  type WebhookEndpointRow,
} from '../../db/queries/webhook-endpoints';
import { AppError, notFound } from '../../domain/errors';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../domain/keyset-cursor';
import type { Settings } from '../../domain/settings';
import { REFUSAL_DETAIL } from '../../domain/webhooks/destination-rules';
import { checkDestination, DestinationRefused, type AddressLookup } from '../../integrations/webhooks/destination';
import { destinationPolicy } from '../../integrations/webhooks/http-sender';
import { deleteEndpointSecrets, storeNewSecret } from './endpoint-secrets';

export interface WebhookEndpointDeps {
  db: Db;
  settings: Settings;
  /** The DNS lookup of the destination check; the system's unless a test names one. */
  webhookLookup?: AddressLookup;
}

export interface NewWebhookEndpoint {
  tenantId: string;
  userId: string;
  url: string;
  description?: string | null | undefined;
  /** null or absent: every type. */
  eventTypes?: string[] | null | undefined;
  enabled?: boolean | undefined;
}

/** 422 `webhook-destination-refused` naming the reason, unless the URL may be delivered to now. */
async function requireDeliverable(deps: WebhookEndpointDeps, url: string): Promise<void> {
  try {
    await checkDestination(url, destinationPolicy(deps.settings), deps.webhookLookup);
  } catch (err) {
    if (!(err instanceof DestinationRefused)) throw err;
    throw new AppError('webhook-destination-refused', `The endpoint URL is refused: ${REFUSAL_DETAIL[err.refusal]}`, { reason: err.refusal });
  }
}

const distinct = (types: string[] | null | undefined) => (types ? [...new Set(types)] : null);

/** The endpoint and its signing secret, which no later answer shows again. */
export async function createWebhookEndpoint(deps: WebhookEndpointDeps, input: NewWebhookEndpoint) {
  await requireDeliverable(deps, input.url);
  return deps.db.transaction(async (tx) => {
    const endpoint = await insertWebhookEndpoint(tx, {
      tenantId: input.tenantId,
      url: input.url,
      description: input.description ?? null,
      eventTypes: distinct(input.eventTypes),
      enabled: input.enabled ?? true,
      createdBy: input.userId,
    });
    const secret = await storeNewSecret(tx, deps.settings, { tenantId: input.tenantId, endpointId: endpoint.id, by: input.userId });
    return { endpoint, secret };
  });
}

/** The tenant's endpoint; 404 `webhook-endpoint-not-found` (another tenant's too). */
export async function getWebhookEndpoint(db: DbOrTx, p: { tenantId: string; id: string }): Promise<WebhookEndpointRow> {
  const row = await findWebhookEndpoint(db, p);
  if (!row) throw notFound('Webhook endpoint', 'webhook-endpoint-not-found');
  return row;
}

/** One page of the tenant's endpoints, newest first; nextCursor is null on the last page. */
export async function listWebhookEndpointPage(db: DbOrTx, p: { tenantId: string; limit: number; cursor?: string | undefined }) {
  const rows = await listWebhookEndpoints(db, { tenantId: p.tenantId, limit: p.limit + 1, after: p.cursor ? decodeKeysetCursor(p.cursor) : undefined });
  const items = rows.slice(0, p.limit);
  const last = items.at(-1);
  return { items, limit: p.limit, nextCursor: rows.length > p.limit && last ? encodeKeysetCursor({ createdAt: last.cursorAt, id: last.id }) : null };
}

/** Changes what is given; a new URL is checked first. Enabling clears `disabledReason` and the failure streak. */
export async function changeWebhookEndpoint(deps: WebhookEndpointDeps, p: { tenantId: string; id: string; patch: WebhookEndpointPatch }) {
  await getWebhookEndpoint(deps.db, p);
  if (p.patch.url !== undefined) await requireDeliverable(deps, p.patch.url);
  const patch = { ...p.patch, eventTypes: p.patch.eventTypes === undefined ? undefined : distinct(p.patch.eventTypes) };
  const row = await updateWebhookEndpoint(deps.db, { tenantId: p.tenantId, id: p.id, patch });
  if (!row) throw notFound('Webhook endpoint', 'webhook-endpoint-not-found');
  return row;
}

/** The endpoint, its secrets, deliveries and their attempts; a delivery waiting to retry finds nothing and stops. */
export async function removeWebhookEndpoint(deps: { db: Db }, p: { tenantId: string; id: string }): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await deleteWebhookEndpoint(tx, p))) throw notFound('Webhook endpoint', 'webhook-endpoint-not-found');
    await deleteEndpointSecrets(tx, { tenantId: p.tenantId, endpointId: p.id });
  });
}
