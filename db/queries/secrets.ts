import { and, eq, sql } from 'drizzle-orm';
import { openSecret, sealSecret } from '../../domain/secret-box';
import { AppError } from '../../domain/errors';
import type { DbOrTx } from '../client';
import { tenantSecrets } from '../schema/secrets';

const aad = (tenantId: string, name: string) => `${tenantId}\u0000${name}`;

function requireKey(masterKey: Buffer | undefined): Buffer {
  if (!masterKey) {
    throw new AppError('secrets-unavailable', 'Secret storage is not configured (SECRETS_MASTER_KEY is unset)');
  }
  return masterKey;
}

export async function putTenantSecret(
  db: DbOrTx,
  masterKey: Buffer | undefined,
  tenantId: string,
  name: string,
  value: string,
  by: string,
) {
  const sealed = sealSecret(requireKey(masterKey), value, aad(tenantId, name));
  await db
    .insert(tenantSecrets)
    .values({ tenantId, name, sealed, updatedBy: by })
    .onConflictDoUpdate({
      target: [tenantSecrets.tenantId, tenantSecrets.name],
      set: { sealed, updatedBy: by, updatedAt: sql`now()` },
    });
}

export async function deleteTenantSecret(db: DbOrTx, tenantId: string, name: string) {
  const rows = await db
    .delete(tenantSecrets)
    .where(and(eq(tenantSecrets.tenantId, tenantId), eq(tenantSecrets.name, name)))
    .returning({ name: tenantSecrets.name });
  return rows.length > 0;
}

export async function hasTenantSecret(db: DbOrTx, tenantId: string, name: string) {
  const rows = await db
    .select({ name: tenantSecrets.name })
    .from(tenantSecrets)
    .where(and(eq(tenantSecrets.tenantId, tenantId), eq(tenantSecrets.name, name)));
  return rows.length > 0;
}

/** The opened value, or undefined when the tenant has none (callers fall back to a global setting). */
export async function readTenantSecret(db: DbOrTx, masterKey: Buffer | undefined, tenantId: string, name: string) {
  const rows = await db
    .select({ sealed: tenantSecrets.sealed })
    .from(tenantSecrets)
    .where(and(eq(tenantSecrets.tenantId, tenantId), eq(tenantSecrets.name, name)));
  const row = rows[0];
  if (!row) return undefined;
  return openSecret(requireKey(masterKey), row.sealed, aad(tenantId, name));
}
