// A scan that failed at finalize is retried durably: the registry enqueues this process (capability
// DOCUMENTS, business key `scan-<docId>`) in the finalize transaction; the workflow closes its row.
import { defineProcess } from '../process-contract';

export interface DocumentScanInput {
  tenantId: string;
  docId: string;
  /** From settings docstore.scan-retry-initial-ms / -max-ms, fixed when the retry was enqueued. */
  retry: { initialMs: number; maxMs: number };
}

export const DocumentScanProcess = defineProcess<DocumentScanInput>()({
  capability: 'DOCUMENTS',
  workflowType: 'documentScan',
  tenantOf: (i) => i.tenantId,
  businessKey: (i) => `scan-${i.docId}`,
  signals: {},
});
