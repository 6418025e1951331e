import { proxyActivities, setWorkflowOptions } from '@temporalio/workflow';
import type { DocumentActivities, ScanPendingResult } from '../activities/documents';
import type { createOutboxActivities } from '../activities/outbox';
import { DocumentScanProcess, type DocumentScanInput } from '../domain/documents/scan-process';
import { versioningBehaviour } from './versioning-behaviour';

export type { DocumentScanInput };

type OutboxActivities = ReturnType<typeof createOutboxActivities>;

/**
 * The durable retry of a scan that failed (scanner down, time-out, storage error) at finalize.
 * Started through the outbox (capability DOCUMENTS, business key `scan-<docId>`); retries the
 * scan activity with exponential backoff and no attempt limit, because a document must never
 * become READY unscanned and must not stay PENDING forever either.
 */
export async function documentScan(input: DocumentScanInput): Promise<ScanPendingResult> {
  const { scanPendingDocument } = proxyActivities<DocumentActivities>({
    // A scan streams the stored version to clamd (bounded by docstore.clamav-timeout-ms); the activity
    // heartbeats every 5 s (activities/heartbeat.ts), so one on a worker that died runs again after 20 s.
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: '20 seconds',
    retry: {
      initialInterval: input.retry.initialMs,
      backoffCoefficient: 2,
      maximumInterval: Math.max(input.retry.maxMs, input.retry.initialMs),
      nonRetryableErrorTypes: ['DocumentWithoutBytes'],
    },
  });
  const { closeOutboxRow } = proxyActivities<OutboxActivities>({ startToCloseTimeout: '1 minute' });
  const result = await scanPendingDocument({ tenantId: input.tenantId, docId: input.docId });
  await closeOutboxRow(DocumentScanProcess.capability, input.tenantId, DocumentScanProcess.businessKey(input));
  return result;
}
// AUTO_UPGRADE: its activity retries without limit while the scanner is down (days, maybe); a run
// must not keep an old build alive for that. One activity and a close: the replay corpus keeps new
// code able to take it over (docs/releases.md).
setWorkflowOptions(versioningBehaviour('AUTO_UPGRADE'), documentScan);
