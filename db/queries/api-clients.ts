import { and, asc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { apiClients } from '../schema/api-clients';

/** Columns safe to answer with: everything but the secret hash. */
const publicColumns = {
  id: apiClients.id,
  tenantId: apiClients.tenantId,
  name: apiClients.name,
  createdBy: apiClients.createdBy,
  createdAt: apiClients.createdAt,
  revokedBy: apiClients.revokedBy,
  revokedAt: apiClients.revokedAt,
};

export type ApiClientRow = {
  id: string;
  tenantId: string;
  name: string;
  createdBy: string;
  createdAt: Date;
  revokedBy: string | null;
  revokedAt: Date | null;
};

export async function insertApiClient(
  db: DbOrTx,
  v: { id: string; tenantId: string; name: string; secretHash: string; createdBy: string },
): Promise<ApiClientRow> {
  const rows = await db.insert(apiClients).values(v).returning(publicColumns);
  return rows[0]!;
}

export async function listApiClients(db: DbOrTx, tenantId: string): Promise<ApiClientRow[]> {
  return db
    .select(publicColumns)
    .from(apiClients)
    .where(eq(apiClients.tenantId, tenantId))
    .orderBy(asc(apiClients.createdAt), asc(apiClients.id));
}

/** Marks an active client revoked; null when it is unknown in this tenant or already revoked. */
export async function revokeApiClient(db: DbOrTx, tenantId: string, id: string, by: string): Promise<ApiClientRow | null> {
  const rows = await db
    .update(apiClients)
    .set({ revokedAt: new Date(), revokedBy: by })
    .where(and(eq(apiClients.tenantId, tenantId), eq(apiClients.id, id), isNull(apiClients.revokedAt)))
    .returning(publicColumns);
  return rows[0] ?? null;
}

/** What Basic authentication needs: the tenant, the stored hash and whether it is revoked. */
export async function findApiClientCredential(db: DbOrTx, id: string) {
  const rows = await db
    .select({ tenantId: apiClients.tenantId, secretHash: apiClients.secretHash, revokedAt: apiClients.revokedAt })
    .from(apiClients)
    .where(eq(apiClients.id, id));
  return rows[0] ?? null;
}
