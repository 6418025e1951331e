// A READY task-scoped document is announced to the workflow that owns its processRef (the
// workflow id recorded by process-started, else the platform's outbox start under that business
// key), as an outbox signal row in the transaction that made it READY: never lost, never sent
// from the request. No owner known: nothing is written. An owner that is not running is recorded
// by the dispatcher as UNDELIVERABLE.
import type { DbOrTx } from '../../db/client';
import { enqueueSignal } from '../../db/outbox';
import { getDocumentProcess, outboxWorkflowFor, type DocumentRow } from '../../db/queries/documents';
import { DocumentAttachedSignal } from '../../domain/documents/signals';

export async function announceAttachment(tx: DbOrTx, row: DocumentRow): Promise<'enqueued' | 'skipped'> {
  if (row.status !== 'READY' || !row.taskId) return 'skipped';
  const process = await getDocumentProcess(tx, row.tenantId, row.processRef);
  const workflowId = process?.workflowId ?? (await outboxWorkflowFor(tx, row.tenantId, row.processRef));
  if (!workflowId) return 'skipped';
  await enqueueSignal(tx, { capability: 'DOCUMENTS', tenantId: row.tenantId, businessKey: row.processRef, workflowId }, DocumentAttachedSignal, {
    docId: row.id,
    tenantId: row.tenantId,
    processRef: row.processRef,
    taskId: row.taskId,
    kind: row.kind,
    capability: row.capability,
    filename: row.filename,
    contentType: row.contentType,
    sizeBytes: row.sizeBytes,
    sha256: row.sha256,
  });
  return 'enqueued';
}
