// The form definition tables: the definition lifecycle's queries bound to them, and the columns
// only forms have (the embed key counter, the outbound roles).
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import type { OutboundRoles } from '../../domain/forms/outbound-roles';
import { formDefinitions, formDefinitionTables } from '../schema/forms';
import { definitionQueries } from './definitions';

export type FormDefinitionRow = typeof formDefinitions.$inferSelect;

/** The lifecycle's queries on form_definitions, form_versions and form_audit_events. */
export const formDefinitionQueries = definitionQueries(formDefinitionTables);

const liveDefinition = (p: { tenantId: string; id: string }) =>
  and(eq(formDefinitions.tenantId, p.tenantId), eq(formDefinitions.id, p.id), isNull(formDefinitions.deletedAt));

/** Bumps embedKeyVersion of a live definition (the optimistic-lock counter stays); null when there is none. */
export async function bumpEmbedKeyVersion(db: DbOrTx, p: { tenantId: string; id: string }): Promise<FormDefinitionRow | null> {
  const [rotated] = await db
    .update(formDefinitions)
    .set({ embedKeyVersion: sql`${formDefinitions.embedKeyVersion} + 1`, updatedAt: sql`now()` })
    .where(liveDefinition(p))
    .returning();
  return rotated ?? null;
}

/** Replaces the embed origins of a live definition (the optimistic-lock counter stays); null when there is none. */
export async function updateEmbedOrigins(db: DbOrTx, p: { tenantId: string; id: string; origins: string[] }): Promise<FormDefinitionRow | null> {
  const [updated] = await db
    .update(formDefinitions)
    .set({ allowedEmbedOrigins: p.origins, updatedAt: sql`now()` })
    .where(liveDefinition(p))
    .returning();
  return updated ?? null;
}

/** Replaces the outbound roles of a live definition (the optimistic-lock counter stays); null when there is none. */
export async function updateOutboundRoles(db: DbOrTx, p: { tenantId: string; id: string; roles: OutboundRoles }): Promise<FormDefinitionRow | null> {
  const [updated] = await db
    .update(formDefinitions)
    .set({ outboundRolesJson: p.roles, updatedAt: sql`now()` })
    .where(liveDefinition(p))
    .returning();
  return updated ?? null;
}
