// What happens to stored bytes before a document may become READY: the malware scan of the
// exact stored version, then (only when it is clean) the object-lock retention of that version.
// Shared by storeDocument (before finalize) and the documentScan activity (the durable retry).
import { retainUntilFrom, type RetentionPlan } from '../../domain/documents/retention';
import type { DocumentObjectStore } from '../../integrations/docstore/object-store';
import type { Scanner } from '../../integrations/docstore/scanner';
import { countedScan } from '../../integrations/metrics/documents';

export type SettleOutcome =
  | { scan: 'SKIPPED' | 'CLEAN'; retention: { mode: RetentionPlan['mode']; retainUntil: Date } | null }
  | { scan: 'INFECTED'; signature: string };

/**
 * Scans the stored version and, if it is clean (or scanning is off), retains it. Throws on a
 * scanner error or time-out (ClamdError) and on an S3 failure: the caller keeps the document
 * PENDING then, so nothing unscanned or unretained is ever READY.
 */
export async function settleStoredObject(
  store: DocumentObjectStore,
  scanner: Scanner,
  key: string,
  versionId: string,
  plan: RetentionPlan | null,
  now: () => Date,
): Promise<SettleOutcome> {
  let scan: 'SKIPPED' | 'CLEAN' = 'SKIPPED';
  if (scanner.mode === 'clamav') {
    const { body } = await store.read(key, versionId);
    try {
      const result = await countedScan(scanner.client.scanStream(body));
      if (result.verdict === 'infected') return { scan: 'INFECTED', signature: result.signature };
      scan = 'CLEAN';
    } finally {
      body.destroy();
    }
  }
  if (!plan) return { scan, retention: null };
  const retainUntil = retainUntilFrom(now(), plan.days);
  await store.retain(key, versionId, plan.mode, retainUntil);
  return { scan, retention: { mode: plan.mode, retainUntil } };
}
