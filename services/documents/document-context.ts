// Layer 3 of the registry's guard, the same for every caller: a document's context. Layers 1
// and 2 (tenant, and what each kind of caller may do) are caller-rules.ts.
import type { DbOrTx } from '../../db/client';
import { outboxWorkflowFor } from '../../db/queries/documents';
import { forbidden } from '../../domain/errors';

/**
 * Every document names its context: a processRef (case level) and optionally a taskId. For
 * SIGNATURES and EMAIL that process must already exist for this tenant (recorded by
 * process-started, or started by the platform's outbox under that business key). FORMS is the
 * carve-out: form attachments are uploaded before submit, and the form's process only starts
 * on submit, so a FORMS document may open a processRef that has no process yet.
 * `recorded`: the caller has already found a process-started record for the processRef.
 */
export async function assertContext(db: DbOrTx, tenantId: string, capability: string, processRef: string, recorded: boolean) {
  if (capability === 'FORMS' || recorded) return;
  if (await outboxWorkflowFor(db, tenantId, processRef)) return;
  throw forbidden(
    'document-context-required',
    `${capability} documents need a started process for their processRef (FORMS alone may open a new one)`,
  );
}
