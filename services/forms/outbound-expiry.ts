// The expiry sweep's step: open instances (DRAFT, SENT, OPENED) whose expiresAt has passed become
// EXPIRED, a bounded batch per transaction, oldest deadline first. Rows another transaction holds
// are skipped (the next batch or run takes them), so the sweep never waits on a recipient.
import type { Db } from '../../db/client';
import { expireDueFormInstances } from '../../db/queries/form-instances';

export async function expireDueInstances(db: Db, batchSize: number): Promise<{ expired: number; byTenant: Record<string, number> }> {
  const tenants = await expireDueFormInstances(db, { batchSize });
  const byTenant: Record<string, number> = {};
  for (const tenantId of tenants) byTenant[tenantId] = (byTenant[tenantId] ?? 0) + 1;
  return { expired: tenants.length, byTenant };
}
