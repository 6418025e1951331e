import { ApplicationFailure } from '@temporalio/activity';
import { findExpiredDocuments, getDocument, markExpiredDocumentsDeleted, updateDocument } from '../db/queries/documents';
import { retentionPlanFor } from '../domain/documents/retention';
import { settledColumns } from '../domain/documents/settled-columns';
import { physicalKey } from '../domain/documents/storage-key';
import { createObjectStore } from '../integrations/docstore/object-store';
import { createScanner } from '../integrations/docstore/scanner';
import { announceAttachment } from '../services/documents/attach-signal';
import { settleStoredObject } from '../services/documents/settle';
import type { ActivityDeps } from './deps';

export interface ScanPendingInput {
  tenantId: string;
  docId: string;
}

export interface ScanPendingResult {
  docId: string;
  /** The row's status when the activity ended; `GONE` when no such row exists. */
  status: 'PENDING' | 'READY' | 'QUARANTINED' | 'DELETED' | 'GONE';
  /** false: someone else settled (or deleted) it first; nothing was done. */
  settledHere: boolean;
}

export interface RetentionPurgeBatch {
  marked: number;
  byTenant: Record<string, number>;
}

export interface RetentionPurgeFindings {
  wouldMark: number;
  byTenant: Record<string, number>;
  sample: Array<{ id: string; tenantId: string; retainUntil: string | null }>;
}

export function createDocumentActivities(deps: ActivityDeps) {
  const { db, settings, logger } = deps;
  const scanner = createScanner(settings);
  const store = createObjectStore(settings, deps.s3);
  const now = () => new Date();
  const log = logger.child({ component: 'documents' });

  return {
    /**
     * The durable retry of a scan that failed at finalize: rescan the stored version, retain it
     * when clean, and settle the row (optimistic). Scanner or storage failures throw a plain
     * error, so Temporal retries with backoff; the row stays PENDING meanwhile.
     */
    async scanPendingDocument(input: ScanPendingInput): Promise<ScanPendingResult> {
      const row = await getDocument(db, input.tenantId, input.docId);
      if (!row) return { docId: input.docId, status: 'GONE', settledHere: false };
      if (row.status !== 'PENDING' || row.scanStatus !== 'ERROR') {
        return { docId: row.id, status: row.status, settledHere: false };
      }
      if (!row.storageVersionId) {
        throw ApplicationFailure.nonRetryable('A PENDING document awaiting a scan has no stored version', 'DocumentWithoutBytes');
      }
      if (!store) throw new Error('This worker has no S3 client; another worker must scan the document');
      const plan = retentionPlanFor(settings, row.capability);
      let outcome;
      try {
        outcome = await settleStoredObject(store, scanner, physicalKey(row.tenantId, row.storageKey), row.storageVersionId, plan, now);
      } catch (err) {
        await updateDocument(db, row.tenantId, row.id, row.version, { scanAttempts: row.scanAttempts + 1 });
        log.warn({ docId: row.id, attempt: row.scanAttempts + 1, err: (err as Error).message }, 'document scan retry failed');
        throw new Error(`scan of document ${row.id} failed: ${(err as Error).message}`);
      }
      const attempts = row.scanAttempts + 1;
      const changes = settledColumns(outcome, now(), attempts);
      const updated = await db.transaction(async (tx) => {
        const settled = await updateDocument(tx, row.tenantId, row.id, row.version, changes);
        if (settled) await announceAttachment(tx, settled);
        return settled;
      });
      // Someone wrote the row meanwhile: the next attempt reloads it and decides again.
      if (!updated) throw new Error(`document ${row.id} changed during its scan; retrying`);
      log.info({ docId: row.id, status: updated.status, attempts }, 'document scan settled by the durable retry');
      return { docId: row.id, status: updated.status, settledHere: true };
    },

    /** Dry run of the retention purge: what would be marked, without writing. */
    async findExpiredDocumentsForPurge(input: { cutoff: string; sampleSize: number }): Promise<RetentionPurgeFindings> {
      const found = await findExpiredDocuments(db, new Date(input.cutoff), input.sampleSize);
      return {
        wouldMark: found.byTenant.reduce((n, t) => n + t.count, 0),
        byTenant: Object.fromEntries(found.byTenant.map((t) => [t.tenantId, t.count])),
        sample: found.sample.map((s) => ({ id: s.id, tenantId: s.tenantId, retainUntil: s.retainUntil?.toISOString() ?? null })),
      };
    },

    /** One batch of the real purge: rows past their horizon become DELETED; storage is not touched. */
    async markExpiredDocumentsBatch(input: { cutoff: string; batchSize: number }): Promise<RetentionPurgeBatch> {
      const rows = await markExpiredDocumentsDeleted(db, new Date(input.cutoff), input.batchSize);
      const byTenant: Record<string, number> = {};
      for (const r of rows) byTenant[r.tenantId] = (byTenant[r.tenantId] ?? 0) + 1;
      return { marked: rows.length, byTenant };
    },

    /** The run's report in the worker log (it is also the workflow result in the Web UI). */
    async logRetentionPurgeReport(report: object): Promise<void> {
      log.info({ report }, 'retention purge report');
    },
  };
}

export type DocumentActivities = ReturnType<typeof createDocumentActivities>;
