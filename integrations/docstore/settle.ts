// What happens to stored bytes before a document may become READY: the malware scan of the
// exact stored version, then (only when it is clean) the object-lock retention of that version.
// Shared by the proxy (at finalize) and the documentScan activity (the durable retry).
import { createClamdClient, type ClamdClient } from '../clamav/clamd-client';
import type { S3Client } from '@aws-sdk/client-s3';
import { retainUntilFrom, retentionPlan, type RetentionPlan } from '../../domain/documents/retention';
import type { Settings } from '../../domain/settings';
import { DocumentObjectStore } from './object-store';

export type Scanner = { mode: 'off' } | { mode: 'clamav'; client: ClamdClient };

export function createScanner(settings: Settings): Scanner {
  if (settings['docstore.scan'] === 'off') return { mode: 'off' };
  return {
    mode: 'clamav',
    client: createClamdClient({
      host: settings['docstore.clamav-host'],
      port: settings['docstore.clamav-port'],
      timeoutMs: settings['docstore.clamav-timeout-ms'],
    }),
  };
}

/** The retention plan of a capability's documents under these settings (null: not retained). */
export function retentionPlanFor(settings: Settings, capability: string): RetentionPlan | null {
  return retentionPlan(capability, {
    FORMS: settings['docstore.retention-days.forms'],
    SIGNATURES: settings['docstore.retention-days.signatures'],
    EMAIL: settings['docstore.retention-days.email'],
  });
}

/** The documents' object store under these settings; none without an S3 client. */
export function createObjectStore(settings: Settings, s3: S3Client | undefined): DocumentObjectStore | undefined {
  return s3 ? new DocumentObjectStore({ s3, bucket: settings['s3.bucket'], sse: settings['docstore.sse'] }) : undefined;
}

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
      const result = await scanner.client.scanStream(body);
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
