import { proxyActivities, setWorkflowOptions } from '@temporalio/workflow';
import type { DocumentActivities, RetentionPurgeFindings } from '../activities/documents';
import type { RetentionPurgeInput } from '../domain/documents/retention-purge-process';
import { versioningBehaviour } from './versioning-behaviour';

export type { RetentionPurgeInput };

export interface RetentionPurgeReport {
  dryRun: boolean;
  /** Rows whose retainUntil is before this instant (the run's start) were considered. */
  cutoff: string;
  /** Dry run: how many rows would be marked DELETED. */
  wouldMark?: number;
  sample?: RetentionPurgeFindings['sample'];
  /** Real run: how many rows were marked DELETED, in how many batches. */
  marked?: number;
  batches?: number;
  byTenant: Record<string, number>;
  finishedAt: string;
}

/**
 * Marks documents whose object-lock horizon has passed DELETED, in batches, never touching
 * storage (lifecycle rules reclaim bytes). Run by the Temporal Schedule
 * `documents-retention-purge`; the report is the workflow result and is logged by the worker.
 */
export async function retentionPurge(input: RetentionPurgeInput): Promise<RetentionPurgeReport> {
  const acts = proxyActivities<DocumentActivities>({
    startToCloseTimeout: '5 minutes',
    retry: { initialInterval: '5 seconds', maximumInterval: '2 minutes', maximumAttempts: 10 },
  });
  const cutoff = new Date().toISOString();
  let report: RetentionPurgeReport;
  if (input.dryRun) {
    const found = await acts.findExpiredDocumentsForPurge({ cutoff, sampleSize: input.sampleSize ?? 20 });
    report = { dryRun: true, cutoff, wouldMark: found.wouldMark, sample: found.sample, byTenant: found.byTenant, finishedAt: '' };
  } else {
    const byTenant: Record<string, number> = {};
    let marked = 0;
    let batches = 0;
    const maxBatches = input.maxBatches ?? 1000;
    for (;;) {
      const batch = await acts.markExpiredDocumentsBatch({ cutoff, batchSize: input.batchSize });
      batches++;
      marked += batch.marked;
      for (const [t, n] of Object.entries(batch.byTenant)) byTenant[t] = (byTenant[t] ?? 0) + n;
      if (batch.marked < input.batchSize || batches >= maxBatches) break;
    }
    report = { dryRun: false, cutoff, marked, batches, byTenant, finishedAt: '' };
  }
  report.finishedAt = new Date().toISOString();
  await acts.logRetentionPurgeReport(report);
  return report;
}
// PINNED: a bounded batch job; each scheduled run starts on the current build (docs/releases.md).
setWorkflowOptions(versioningBehaviour('PINNED'), retentionPurge);
