// A scan (or retention) that failed before finalize is retried durably: finalize writes this
// outbox row in its own transaction and the dispatcher starts documentScan, which closes it.
import type { DbOrTx } from '../../db/client';
import { enqueueOutbox } from '../../db/outbox';
import { scanBusinessKey } from '../../domain/documents/scan-retry';
import type { Settings } from '../../domain/settings';

export async function enqueueScanRetry(tx: DbOrTx, settings: Settings, tenantId: string, docId: string) {
  await enqueueOutbox(tx, {
    capability: 'DOCUMENTS',
    tenantId,
    businessKey: scanBusinessKey(docId),
    workflowType: 'documentScan',
    args: [
      {
        tenantId,
        docId,
        retry: { initialMs: settings['docstore.scan-retry-initial-ms'], maxMs: settings['docstore.scan-retry-max-ms'] },
      },
    ],
  });
}
