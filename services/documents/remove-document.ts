// Deleting a document: the registry soft-deletes the row, then its object is dropped from the
// bucket. The row is the truth; a storage failure after it is logged, never the caller's error
// (storage lifecycle rules reclaim what is left).
import type { Logger } from 'pino';
import { physicalKey } from '../../domain/documents/storage-key';
import type { DocumentObjectStore } from '../../integrations/docstore/object-store';
import type { DocumentView } from './document-view';
import type { RegistryCaller, RegistryClient, Removal } from './registry-client';

export interface RemoveDocumentDeps {
  registry: RegistryClient;
  /** Absent on a node without S3: the row is still deleted, the object left to lifecycle rules. */
  store: DocumentObjectStore | undefined;
  log: Logger;
}

export async function removeDocument(
  deps: RemoveDocumentDeps,
  caller: RegistryCaller,
  docId: string,
  expectedVersion?: number,
): Promise<DocumentView> {
  const removal = await deps.registry.remove(caller, docId, expectedVersion);
  try {
    if (!deps.store) throw new Error('object storage is not configured on this node');
    await dropStoredObject(deps.store, caller.tenantId, removal);
  } catch (err) {
    deps.log.warn({ docId, err: (err as Error).message }, 'dropping the object after a soft delete failed');
  }
  return removal.document;
}

/** A delete marker when retained (the locked version stays), every version and marker when never retained. */
export async function dropStoredObject(store: DocumentObjectStore, tenantId: string, removal: Removal): Promise<void> {
  const key = physicalKey(tenantId, removal.storageKey);
  if (removal.hardDelete) await store.purge(key);
  else await store.hide(key);
}
