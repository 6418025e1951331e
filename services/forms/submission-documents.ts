// The documents of a submission (spec rule 5 and step 7): its mirrored FORM_ATTACHMENT documents and
// its FORM_SUBMISSION_PDF, both FORMS documents owned by the instance (owner_entity_id = instance id)
// under its processRef.
import type { DbOrTx } from '../../db/client';
import type { FormInstanceRow } from '../../db/queries/form-instances';
import { listInstanceAttachments, listInstanceSubmissionPdfs } from '../documents/form-instance-documents';

const processRefOf = (row: FormInstanceRow) => (typeof row.context.processRef === 'string' ? row.context.processRef : null);

/** READY attachments linked to the submission, oldest first. */
export async function submissionAttachments(db: DbOrTx, row: FormInstanceRow) {
  const processRef = processRefOf(row);
  if (!processRef) return [];
  return listInstanceAttachments(db, { tenantId: row.tenantId, processRef, instanceId: row.id });
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
  const pdfs = await listInstanceSubmissionPdfs(db, { tenantId, processRefs: [...byRef.keys()], instanceIds: rows.map((r) => r.id) });
  for (const pdf of pdfs) {
    if (pdf.ownerEntityId && byRef.get(pdf.processRef)?.includes(pdf.ownerEntityId) && !found.has(pdf.ownerEntityId)) {
      found.set(pdf.ownerEntityId, { docId: pdf.docId });
    }
  }
  return found;
}
