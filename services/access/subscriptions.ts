import type { Db } from '../../db/client';
import { insertAudit } from '../../db/queries/access-audit';
import { getCapability } from '../../db/queries/catalog';
import {
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  upsertSubscription,
} from '../../db/queries/entitlements';
import { conflict, notFound } from '../../domain/errors';

/** A tenant's subscription with the catalog entry it names. */
export type TenantSubscription = Awaited<ReturnType<typeof listSubscriptions>>[number];

interface SubscriptionInput {
  tenantId: string;
  code: string;
  actor: string;
}

export async function listTenantSubscriptions(db: Db, input: { tenantId: string }): Promise<TenantSubscription[]> {
  return listSubscriptions(db, input.tenantId);
}

/** Subscribe: none or SUSPENDED → ACTIVE; an unknown capability is 404, a retired one 409. */
export async function enableSubscription(db: Db, input: SubscriptionInput): Promise<TenantSubscription> {
  const { tenantId, code, actor } = input;
  const capability = await getCapability(db, code);
  if (!capability) throw notFound(`Capability ${code}`, 'capability-not-found');
  if (capability.status === 'RETIRED') {
    throw conflict('capability-retired', `Capability ${code} is retired; it cannot be subscribed`);
  }
  const row = await db.transaction(async (tx) => {
    const subscription = await upsertSubscription(tx, tenantId, code, 'ACTIVE', actor);
    await insertAudit(tx, { tenantId, actor, action: 'subscription.enable', capabilityCode: code });
    return subscription;
  });
  // The catalog row is already in hand: no second read of the tenant's subscriptions.
  return {
    ...row,
    capabilityName: capability.name,
    route: capability.route,
    icon: capability.icon,
    tier: capability.tier,
    capabilityStatus: capability.status,
  };
}

/** ACTIVE → SUSPENDED: grants stay but give no access until the subscription is enabled again. */
export async function suspendSubscription(db: Db, input: SubscriptionInput) {
  const { tenantId, code, actor } = input;
  await db.transaction(async (tx) => {
    if (!(await getSubscription(tx, tenantId, code))) throw notFound('Subscription', 'subscription-not-found');
    await upsertSubscription(tx, tenantId, code, 'SUSPENDED', actor);
    await insertAudit(tx, { tenantId, actor, action: 'subscription.suspend', capabilityCode: code });
  });
}

/** Removes the subscription row; grants stay but give no access. */
export async function removeSubscription(db: Db, input: SubscriptionInput) {
  const { tenantId, code, actor } = input;
  await db.transaction(async (tx) => {
    if (!(await deleteSubscription(tx, tenantId, code))) throw notFound('Subscription', 'subscription-not-found');
    await insertAudit(tx, { tenantId, actor, action: 'subscription.remove', capabilityCode: code });
  });
}
