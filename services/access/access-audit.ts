import type { Db } from '../../db/client';
import { listAudit } from '../../db/queries/access-audit';

/** One page of the tenant's access audit, newest first; `nextBefore` is null on the last page. */
export async function listTenantAudit(db: Db, input: { tenantId: string; limit: number; before?: number | undefined }) {
  const { tenantId, limit, before } = input;
  const entries = await listAudit(db, tenantId, limit, before);
  const nextBefore = entries.length === limit ? (entries[entries.length - 1]?.id ?? null) : null;
  return { entries, nextBefore };
}
