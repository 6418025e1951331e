// The retention purge's two steps over the registry (the retentionPurge process): what would be
// marked (the dry run), and one batch of the real purge. Storage is never touched.
import type { DbOrTx } from '../../db/client';
import { findExpiredDocuments, markExpiredDocumentsDeleted } from '../../db/queries/documents';

export interface RetentionPurgeBatch {
  marked: number;
  byTenant: Record<string, number>;
}

export interface RetentionPurgeFindings {
  wouldMark: number;
  byTenant: Record<string, number>;
  sample: Array<{ id: string; tenantId: string; retainUntil: string | null }>;
}

/** Dry run of the retention purge: what would be marked, without writing. */
export async function findPurgeCandidates(db: DbOrTx, input: { cutoff: Date; sampleSize: number }): Promise<RetentionPurgeFindings> {
  const found = await findExpiredDocuments(db, input.cutoff, input.sampleSize);
  return {
    wouldMark: found.byTenant.reduce((n, t) => n + t.count, 0),
    byTenant: Object.fromEntries(found.byTenant.map((t) => [t.tenantId, t.count])),
    sample: found.sample.map((s) => ({ id: s.id, tenantId: s.tenantId, retainUntil: s.retainUntil?.toISOString() ?? null })),
  };
}

/** One batch of the real purge: rows past their horizon become DELETED. */
export async function markExpiredDocuments(db: DbOrTx, input: { cutoff: Date; batchSize: number }): Promise<RetentionPurgeBatch> {
  const rows = await markExpiredDocumentsDeleted(db, input.cutoff, input.batchSize);
  const byTenant: Record<string, number> = {};
  for (const r of rows) byTenant[r.tenantId] = (byTenant[r.tenantId] ?? 0) + 1;
  return { marked: rows.length, byTenant };
}
