import { and, desc, eq, lt } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { accessAudit } from '../schema/access';

export interface AuditEntry {
  tenantId: string;
  actor: string;
  action: string;
  subjectUserId?: string | null;
  capabilityCode?: string | null;
  detail?: Record<string, unknown>;
}

export async function insertAudit(db: DbOrTx, e: AuditEntry) {
  await db.insert(accessAudit).values({
    tenantId: e.tenantId,
    actor: e.actor,
    action: e.action,
    subjectUserId: e.subjectUserId ?? null,
    capabilityCode: e.capabilityCode ?? null,
    detail: e.detail ?? {},
  });
}

/** Newest first, keyset-paged by id. */
export async function listAudit(db: DbOrTx, tenantId: string, limit: number, before?: number) {
  return db
    .select()
    .from(accessAudit)
    .where(and(eq(accessAudit.tenantId, tenantId), before ? lt(accessAudit.id, before) : undefined))
    .orderBy(desc(accessAudit.id))
    .limit(limit);
}
