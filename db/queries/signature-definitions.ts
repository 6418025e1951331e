// The signature definitions: the lifecycle's queries bound to the signature tables, and the
// campaigns' reads of a definition's name and of a pinned version's signing schema.
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { signatureDefinitions, signatureDefinitionTables, signatureVersions } from '../schema/signatures';
import { definitionQueries } from './definitions';

export const signatureDefinitionQueries = definitionQueries(signatureDefinitionTables);

/** The definition's name; without `tenantId` by id alone (the caller's campaign row already names it). */
export async function findSignatureDefinitionName(db: DbOrTx, p: { id: string; tenantId?: string }): Promise<string | null> {
  const [d] = await db
    .select({ name: signatureDefinitions.name })
    .from(signatureDefinitions)
    .where(and(p.tenantId === undefined ? undefined : eq(signatureDefinitions.tenantId, p.tenantId), eq(signatureDefinitions.id, p.id)));
  return d?.name ?? null;
}

/** The signing schema of a version as stored (unrepaired); undefined when there is no such version. */
export async function findSignatureVersionSchema(db: DbOrTx, p: { versionId: string }): Promise<unknown> {
  const [v] = await db.select({ schema: signatureVersions.schema }).from(signatureVersions).where(eq(signatureVersions.id, p.versionId));
  return v?.schema;
}
