// The documents of a submission (spec rule 5 and step 7): its mirrored FORM_ATTACHMENT documents and
// its FORM_SUBMISSION_PDF, both FORMS documents owned by the instance (owner_entity_id = instance id)
// under its processRef.
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { FormInstanceRow } from '../../db/queries/form-instances';
import { documents } from '../../db/schema/documents';

const d = documents;

const processRefOf = (row: FormInstanceRow) => (typeof row.context.processRef === 'string' ? row.context.processRef : null);

/** READY attachments linked to the submission, oldest first. */
export async function submissionAttachments(db: DbOrTx, row: FormInstanceRow) {
  const processRef = processRefOf(row);
  if (!processRef) return [];
  return db
    .select({ docId: d.id, filename: d.filename, sizeBytes: d.sizeBytes })
    .from(d)
    .where(
      and(
        eq(d.tenantId, row.tenantId),
        eq(d.capability, 'FORMS'),
        eq(d.processRef, processRef),
        eq(d.ownerEntityId, row.id),
        eq(d.kind, 'FORM_ATTACHMENT'),
        eq(d.status, 'READY'),
      ),
    )
    .orderBy(asc(d.createdAt), asc(d.id));
}

/** The submission PDF of each instance that has one (not deleted), by instance id. */
export async function submissionPdfs(db: DbOrTx, rows: FormInstanceRow[]): Promise<Map<string, { docId: string }>> {
  const found = new Map<string, { docId: string }>();
  const byRef = new Map<string, string[]>();
  for (const row of rows) {
    const ref = processRefOf(row);
    if (ref) byRef.set(ref, [...(byRef.get(ref) ?? []), row.id]);
  }
  const tenantId = rows[0]?.tenantId;
  if (!tenantId || byRef.size === 0) return found;
  const pdfs = await db
    .select({ docId: d.id, ownerEntityId: d.ownerEntityId, processRef: d.processRef })
    .from(d)
    .where(
      and(
        eq(d.tenantId, tenantId),
        eq(d.capability, 'FORMS'),
        eq(d.kind, 'FORM_SUBMISSION_PDF'),
        ne(d.status, 'DELETED'),
        inArray(d.processRef, [...byRef.keys()]),
        inArray(d.ownerEntityId, rows.map((r) => r.id)),
      ),
    )
    .orderBy(asc(d.createdAt));
  for (const pdf of pdfs) {
    if (pdf.ownerEntityId && byRef.get(pdf.processRef)?.includes(pdf.ownerEntityId) && !found.has(pdf.ownerEntityId)) {
      found.set(pdf.ownerEntityId, { docId: pdf.docId });
    }
  }
  return found;
}
