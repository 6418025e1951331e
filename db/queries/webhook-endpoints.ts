// A tenant's webhook endpoints (webhook_endpoints); their secrets are tenant_secrets rows (secrets.ts).
import { and, desc, eq, getTableColumns, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { KeysetPosition } from '../../domain/keyset-cursor';
import type { DbOrTx } from '../client';
import { webhookEndpoints } from '../schema/webhooks';
import { afterKeyset, keysetTimestamp } from './keyset';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

export async function insertWebhookEndpoint(
  db: DbOrTx,
  p: { tenantId: string; url: string; description: string | null; eventTypes: string[] | null; enabled: boolean; createdBy: string },
): Promise<WebhookEndpointRow> {
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ ...p, disabledAt: p.enabled ? null : sql`now()` })
    .returning();
  return row!;
}

/** The tenant's endpoint; `forUpdate` takes its row lock (rotations of one endpoint are serialised by it). */
export async function findWebhookEndpoint(db: DbOrTx, p: { tenantId: string; id: string; forUpdate?: boolean }): Promise<WebhookEndpointRow | null> {
  const q = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenantId, p.tenantId), eq(webhookEndpoints.id, p.id)));
  const [row] = p.forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

/** Newest first, keyset-paged on (createdAt, id). */
export async function listWebhookEndpoints(db: DbOrTx, p: { tenantId: string; limit: number; after?: KeysetPosition | undefined }) {
  const where: SQL[] = [eq(webhookEndpoints.tenantId, p.tenantId)];
  if (p.after) where.push(afterKeyset(webhookEndpoints, p.after, 'desc'));
  return db
    .select({ ...getTableColumns(webhookEndpoints), cursorAt: keysetTimestamp(webhookEndpoints.createdAt) })
    .from(webhookEndpoints)
    .where(and(...where))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
    .limit(p.limit);
}

export interface WebhookEndpointPatch {
  url?: string | undefined;
  description?: string | null | undefined;
  eventTypes?: string[] | null | undefined;
  enabled?: boolean | undefined;
}

/**
 * Applies the given fields. Enabling clears why and since when the endpoint was disabled and its
 * failure streak; disabling an enabled endpoint stamps `disabledAt` (no reason: an owner did it).
 */
export async function updateWebhookEndpoint(db: DbOrTx, p: { tenantId: string; id: string; patch: WebhookEndpointPatch }): Promise<WebhookEndpointRow | null> {
  const { url, description, eventTypes, enabled } = p.patch;
  const set: Record<string, unknown> = { updatedAt: sql`now()` };
  if (url !== undefined) set.url = url;
  if (description !== undefined) set.description = description;
  if (eventTypes !== undefined) set.eventTypes = eventTypes;
  if (enabled === true) Object.assign(set, { enabled: true, disabledAt: null, disabledReason: null, failingSince: null });
  if (enabled === false) {
    Object.assign(set, {
      enabled: false,
      disabledAt: sql`case when ${webhookEndpoints.enabled} then now() else ${webhookEndpoints.disabledAt} end`,
    });
  }
  const [row] = await db
    .update(webhookEndpoints)
    .set(set)
    .where(and(eq(webhookEndpoints.tenantId, p.tenantId), eq(webhookEndpoints.id, p.id)))
    .returning();
  return row ?? null;
}

export async function deleteWebhookEndpoint(db: DbOrTx, p: { tenantId: string; id: string }): Promise<boolean> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenantId, p.tenantId), eq(webhookEndpoints.id, p.id)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/**
 * Holds the endpoint against deletion until the transaction ends (FOR KEY SHARE: it does not
 * conflict with the streak updates of parallel deliveries, only with the DELETE, which then waits,
 * so a deletion and an attempt's record always lock in the same order). False when it is gone.
 */
export async function holdWebhookEndpoint(db: DbOrTx, p: { id: string }): Promise<boolean> {
  const rows = await db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(eq(webhookEndpoints.id, p.id)).for('key share');
  return rows.length > 0;
}

/** A rotation: the previous secret stays valid until `previousExpiresAt` (null: not at all). */
export async function markWebhookSecretRotated(db: DbOrTx, p: { id: string; previousExpiresAt: Date | null }): Promise<WebhookEndpointRow> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ secretRotatedAt: sql`now()`, previousSecretExpiresAt: p.previousExpiresAt, updatedAt: sql`now()` })
    .where(eq(webhookEndpoints.id, p.id))
    .returning();
  return row!;
}

/**
 * A failed attempt at `at`: starts the endpoint's failure streak unless one runs. Returns when the
 * streak started. Writes nothing while a streak runs, so parallel deliveries do not queue on the row.
 */
export async function markWebhookEndpointFailing(db: DbOrTx, p: { id: string; at: Date }): Promise<Date | null> {
  const [started] = await db
    .update(webhookEndpoints)
    .set({ failingSince: p.at })
    .where(and(eq(webhookEndpoints.id, p.id), isNull(webhookEndpoints.failingSince)))
    .returning({ failingSince: webhookEndpoints.failingSince });
  if (started) return started.failingSince;
  const [row] = await db.select({ failingSince: webhookEndpoints.failingSince }).from(webhookEndpoints).where(eq(webhookEndpoints.id, p.id));
  return row?.failingSince ?? null;
}

/** A success ends the failure streak; no write when none runs. */
export async function markWebhookEndpointHealthy(db: DbOrTx, p: { id: string }): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ failingSince: null })
    .where(and(eq(webhookEndpoints.id, p.id), isNotNull(webhookEndpoints.failingSince)));
}

/** The platform disables an endpoint and says why (the owners read `disabledReason`). */
export async function disableWebhookEndpoint(db: DbOrTx, p: { id: string; reason: string }): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: p.reason, disabledAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(webhookEndpoints.id, p.id), eq(webhookEndpoints.enabled, true)));
}
