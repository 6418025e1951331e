// The durable retry of a scan that failed at finalize (the documentScan process): rescan the
// stored version, retain it when clean, and settle the row (optimistic).
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import { getDocument, updateDocument } from '../../db/queries/documents';
import { retentionPlanFor } from '../../domain/documents/retention';
import { settledColumns } from '../../domain/documents/settled-columns';
import { physicalKey } from '../../domain/documents/storage-key';
import type { Settings } from '../../domain/settings';
import type { DocumentObjectStore } from '../../integrations/docstore/object-store';
import type { Scanner } from '../../integrations/docstore/scanner';
import { announceAttachment } from './attach-signal';
import { settleStoredObject } from './settle';

export interface RescanDocumentDeps {
  db: Db;
  settings: Settings;
  /** Absent on a node without an S3 client: the rescan fails (retryable) for another node to take. */
  store: DocumentObjectStore | undefined;
  scanner: Scanner;
  now: () => Date;
  log: Logger;
}

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

/** A PENDING row awaiting its scan without a stored version: no retry can ever scan it. */
export class DocumentWithoutBytesError extends Error {
  override readonly name = 'DocumentWithoutBytesError';
  constructor() {
    super('A PENDING document awaiting a scan has no stored version');
  }
}

/**
 * Rescans a PENDING document whose scan errored and settles it. Scanner or storage failures throw
 * a plain error, so the caller retries with backoff; the row stays PENDING meanwhile.
 */
export async function rescanDocument(deps: RescanDocumentDeps, input: ScanPendingInput): Promise<ScanPendingResult> {
  const { db, settings, store, scanner, now, log } = deps;
  const row = await getDocument(db, input.tenantId, input.docId);
  if (!row) return { docId: input.docId, status: 'GONE', settledHere: false };
  if (row.status !== 'PENDING' || row.scanStatus !== 'ERROR') {
    return { docId: row.id, status: row.status, settledHere: false };
  }
  if (!row.storageVersionId) throw new DocumentWithoutBytesError();
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
}
