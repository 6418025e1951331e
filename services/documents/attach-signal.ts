// Best effort: a READY task-scoped document is announced to the workflow that owns its
// processRef (the workflow id recorded by process-started, else the platform's outbox start).
// A workflow that is not running, or any other failure, is logged and never fails the caller.
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { DbOrTx } from '../../db/client';
import { getDocumentProcess, outboxWorkflowFor, type DocumentRow } from '../../db/queries/documents';
import { DOCUMENT_ATTACHED_SIGNAL, type DocumentAttached } from '../../domain/documents/signals';

export async function announceAttachment(
  db: DbOrTx,
  temporal: Client | undefined,
  logger: Logger,
  row: DocumentRow,
): Promise<'signalled' | 'skipped' | 'failed'> {
  if (row.status !== 'READY' || !row.taskId) return 'skipped';
  const log = logger.child({ docId: row.id, taskId: row.taskId });
  if (!temporal) {
    log.debug('no Temporal client: documentAttachedSignal not sent');
    return 'skipped';
  }
  try {
    const process = await getDocumentProcess(db, row.tenantId, row.processRef);
    const workflowId = process?.workflowId ?? (await outboxWorkflowFor(db, row.tenantId, row.processRef));
    if (!workflowId) {
      log.debug('no owning workflow known for the processRef: documentAttachedSignal not sent');
      return 'skipped';
    }
    const payload: DocumentAttached = {
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
    };
    await temporal.workflow.getHandle(workflowId).signal(DOCUMENT_ATTACHED_SIGNAL, payload);
    log.info({ workflowId }, 'documentAttachedSignal sent');
    return 'signalled';
  } catch (err) {
    log.warn({ err: err instanceof Error ? err.message : String(err) }, 'documentAttachedSignal failed (best effort)');
    return 'failed';
  }
}
