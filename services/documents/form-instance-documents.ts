// The documents capability's answers about FORMS documents a form instance owns
// (owner_entity_id = instance id, under the instance's processRef): binding an embed session's
// uploads to the instance its submit created, and reading its attachments and submission PDFs.
// The forms capability asks these instead of touching the documents table.
import type { DbOrTx } from '../../db/client';
import { bindProcessAttachments, listOwnedAttachments, listSubmissionPdfs } from '../../db/queries/document-attachments';

/**
 * The processRef's READY FORM_ATTACHMENT documents that no instance owns yet become the
 * instance's (their version moves). Runs in the caller's transaction; answers their ids.
 */
export function linkProcessAttachments(tx: DbOrTx, p: { tenantId: string; processRef: string; instanceId: string }): Promise<string[]> {
  return bindProcessAttachments(tx, { tenantId: p.tenantId, processRef: p.processRef, ownerEntityId: p.instanceId });
}

/** READY attachments of the instance, oldest first. */
export function listInstanceAttachments(db: DbOrTx, p: { tenantId: string; processRef: string; instanceId: string }) {
  return listOwnedAttachments(db, { tenantId: p.tenantId, processRef: p.processRef, ownerEntityId: p.instanceId });
}

/** The submission PDFs (not deleted) of the instances under their processRefs, oldest first. */
export function listInstanceSubmissionPdfs(db: DbOrTx, p: { tenantId: string; processRefs: string[]; instanceIds: string[] }) {
  return listSubmissionPdfs(db, { tenantId: p.tenantId, processRefs: p.processRefs, ownerEntityIds: p.instanceIds });
}
