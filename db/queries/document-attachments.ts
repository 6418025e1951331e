// FORMS documents owned by a form instance (owner_entity_id = instance id) under its processRef:
// the attachments an embed session uploaded before its submit, bound to the instance afterwards,
// and the submission PDFs.
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { documents } from '../schema/documents';

const d = documents;

/** The READY attachments of a processRef that no instance owns yet now belong to `ownerEntityId` (the version moves). */
export async function bindProcessAttachments(db: DbOrTx, p: { tenantId: string; processRef: string; ownerEntityId: string }): Promise<string[]> {
  const bound = await db
    .update(d)
    .set({ ownerEntityId: p.ownerEntityId, version: sql`${d.version} + 1`, updatedAt: sql`now()` })
    .where(
      and(
        eq(d.tenantId, p.tenantId),
        eq(d.processRef, p.processRef),
        eq(d.capability, 'FORMS'),
        eq(d.kind, 'FORM_ATTACHMENT'),
        eq(d.status, 'READY'),
        isNull(d.ownerEntityId),
      ),
    )
    .returning({ id: d.id });
  return bound.map((r) => r.id);
}

/** READY attachments of an owner under its processRef, oldest first. */
export async function listOwnedAttachments(db: DbOrTx, p: { tenantId: string; processRef: string; ownerEntityId: string }) {
  return db
    .select({ docId: d.id, filename: d.filename, sizeBytes: d.sizeBytes })
    .from(d)
    .where(
      and(
        eq(d.tenantId, p.tenantId),
        eq(d.capability, 'FORMS'),
        eq(d.processRef, p.processRef),
        eq(d.ownerEntityId, p.ownerEntityId),
        eq(d.kind, 'FORM_ATTACHMENT'),
        eq(d.status, 'READY'),
      ),
    )
    .orderBy(asc(d.createdAt), asc(d.id));
}

/** Submission PDFs (not deleted) under any of `processRefs` owned by any of `ownerEntityIds`, oldest first. */
export async function listSubmissionPdfs(db: DbOrTx, p: { tenantId: string; processRefs: string[]; ownerEntityIds: string[] }) {
  return db
    .select({ docId: d.id, ownerEntityId: d.ownerEntityId, processRef: d.processRef })
    .from(d)
    .where(
      and(
        eq(d.tenantId, p.tenantId),
        eq(d.capability, 'FORMS'),
        eq(d.kind, 'FORM_SUBMISSION_PDF'),
        ne(d.status, 'DELETED'),
        inArray(d.processRef, p.processRefs),
        inArray(d.ownerEntityId, p.ownerEntityIds),
      ),
    )
    .orderBy(asc(d.createdAt));
}
