// A scan (or retention) that failed before finalize is retried durably: finalize starts the
// documentScan process through the outbox in its own transaction; the workflow closes its row.
import type { DbOrTx } from '../../db/client';
import { enqueueStart } from '../../db/outbox';
import { DocumentScanProcess } from '../../domain/documents/scan-process';
import type { Settings } from '../../domain/settings';

export async function enqueueScanRetry(tx: DbOrTx, settings: Settings, tenantId: string, docId: string) {
  await enqueueStart(tx, DocumentScanProcess, {
    tenantId,
    docId,
    retry: { initialMs: settings['docstore.scan-retry-initial-ms'], maxMs: settings['docstore.scan-retry-max-ms'] },
  });
}
