import { ApplicationFailure } from '@temporalio/activity';
import { DocumentWithoutBytesError, rescanDocument, type ScanPendingInput, type ScanPendingResult } from '../services/documents/rescan-document';
import { findPurgeCandidates, markExpiredDocuments, type RetentionPurgeBatch, type RetentionPurgeFindings } from '../services/documents/retention-purge';
import type { ActivityDeps } from './deps';
import { whileHeartbeating } from './heartbeat';

/** Inputs and results of the document activities, as the documentScan and retentionPurge workflows name them. */
export type { RetentionPurgeBatch, RetentionPurgeFindings, ScanPendingInput, ScanPendingResult };

export function createDocumentActivities(deps: Pick<ActivityDeps, 'db' | 'settings' | 'logger' | 'documents'>) {
  const { db, settings, documents } = deps;
  const log = deps.logger.child({ component: 'documents' });

  return {
    /**
     * The durable retry of a scan that failed at finalize: rescan the stored version, retain it
     * when clean, and settle the row (optimistic). Scanner or storage failures throw a plain
     * error, so Temporal retries with backoff; the row stays PENDING meanwhile. Heartbeats while
     * the bytes stream to clamd: a scan on a worker that died runs again after the workflow's
     * heartbeat timeout, not after its 10-minute start-to-close timeout.
     */
    async scanPendingDocument(input: ScanPendingInput): Promise<ScanPendingResult> {
      try {
        return await whileHeartbeating(() =>
          rescanDocument({ db, settings, store: documents.store, scanner: documents.scanner, now: () => new Date(), log }, input),
        );
      } catch (err) {
        if (err instanceof DocumentWithoutBytesError) throw ApplicationFailure.nonRetryable(err.message, 'DocumentWithoutBytes');
        throw err;
      }
    },

    /** Dry run of the retention purge: what would be marked, without writing. */
    async findExpiredDocumentsForPurge(input: { cutoff: string; sampleSize: number }): Promise<RetentionPurgeFindings> {
      return findPurgeCandidates(db, { cutoff: new Date(input.cutoff), sampleSize: input.sampleSize });
    },

    /** One batch of the real purge: rows past their horizon become DELETED; storage is not touched. */
    async markExpiredDocumentsBatch(input: { cutoff: string; batchSize: number }): Promise<RetentionPurgeBatch> {
      return markExpiredDocuments(db, { cutoff: new Date(input.cutoff), batchSize: input.batchSize });
    },

    /** The run's report in the worker log (it is also the workflow result in the Web UI). */
    async logRetentionPurgeReport(report: object): Promise<void> {
      log.info({ report }, 'retention purge report');
    },
  };
}

export type DocumentActivities = ReturnType<typeof createDocumentActivities>;
