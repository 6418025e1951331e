// An endpoint's signing secrets, sealed in tenant_secrets like provider keys: the current one and,
// for `webhooks.rotation-overlap-hours` after a rotation, the previous one. Shown once (creation,
// rotation), never read back over HTTP, opened only to sign a delivery.
import type { Db, DbOrTx } from '../../db/client';
import { findWebhookEndpoint, markWebhookSecretRotated } from '../../db/queries/webhook-endpoints';
import { deleteTenantSecret, putTenantSecret, readTenantSecret } from '../../db/queries/secrets';
import { AppError, notFound } from '../../domain/errors';
import type { Settings } from '../../domain/settings';
import { newWebhookSecret } from '../../domain/webhooks/signing';

const currentName = (endpointId: string) => `webhook:${endpointId}`;
const previousName = (endpointId: string) => `webhook:${endpointId}:previous`;

type SecretSettings = Pick<Settings, 'secrets.master-key'>;

/** A new current secret for the endpoint (creation); 503 `secrets-unavailable` without a master key. */
export async function storeNewSecret(tx: DbOrTx, settings: SecretSettings, p: { tenantId: string; endpointId: string; by: string }): Promise<string> {
  const secret = newWebhookSecret();
  await putTenantSecret(tx, settings['secrets.master-key'], p.tenantId, currentName(p.endpointId), secret, p.by);
  return secret;
}

export async function deleteEndpointSecrets(tx: DbOrTx, p: { tenantId: string; endpointId: string }): Promise<void> {
  await deleteTenantSecret(tx, p.tenantId, currentName(p.endpointId));
  await deleteTenantSecret(tx, p.tenantId, previousName(p.endpointId));
}

/**
 * A new secret, the old one kept as the previous for the overlap (or dropped when it is 0). The
 * endpoint's row lock serialises rotations: of two at once, the later keeps the earlier's secret as
 * its previous one, so both answers stay valid for the overlap.
 */
export async function rotateEndpointSecret(
  deps: { db: Db; settings: Pick<Settings, 'secrets.master-key' | 'webhooks.rotation-overlap-hours'> },
  p: { tenantId: string; id: string; userId: string },
) {
  const { settings } = deps;
  return deps.db.transaction(async (tx) => {
    const endpoint = await findWebhookEndpoint(tx, { tenantId: p.tenantId, id: p.id, forUpdate: true });
    if (!endpoint) throw notFound('Webhook endpoint', 'webhook-endpoint-not-found');
    const old = await openSecret(tx, settings, p.tenantId, currentName(p.id));
    const overlapMs = settings['webhooks.rotation-overlap-hours'] * 3_600_000;
    const keepPrevious = old !== undefined && overlapMs > 0;
    if (keepPrevious) await putTenantSecret(tx, settings['secrets.master-key'], p.tenantId, previousName(p.id), old, p.userId);
    else await deleteTenantSecret(tx, p.tenantId, previousName(p.id));
    const secret = await storeNewSecret(tx, settings, { tenantId: p.tenantId, endpointId: p.id, by: p.userId });
    const row = await markWebhookSecretRotated(tx, { id: p.id, previousExpiresAt: keepPrevious ? new Date(Date.now() + overlapMs) : null });
    return { endpoint: row, secret };
  });
}

/** The secrets a delivery is signed with at `now`: the current one, and the previous one during its overlap. */
export async function signingSecrets(
  db: DbOrTx,
  settings: SecretSettings,
  p: { tenantId: string; endpointId: string; previousSecretExpiresAt: Date | null; now: Date },
): Promise<string[]> {
  const current = await openSecret(db, settings, p.tenantId, currentName(p.endpointId));
  if (current === undefined) throw new AppError('secrets-unavailable', 'The endpoint has no signing secret');
  const overlapping = p.previousSecretExpiresAt !== null && p.previousSecretExpiresAt > p.now;
  const previous = overlapping ? await openSecret(db, settings, p.tenantId, previousName(p.endpointId)) : undefined;
  return previous === undefined ? [current] : [current, previous];
}

async function openSecret(db: DbOrTx, settings: SecretSettings, tenantId: string, name: string): Promise<string | undefined> {
  try {
    return await readTenantSecret(db, settings['secrets.master-key'], tenantId, name);
  } catch (err) {
    if (err instanceof AppError) throw err;
    // A sealed value that does not open (master key changed, row tampered): say so without internals.
    throw new AppError('secrets-unavailable', 'The endpoint\'s signing secret cannot be opened; rotate it');
  }
}
