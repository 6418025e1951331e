// A document's bytes as a stream, for server-rendered pages that offer a download (the console).
// The same two steps as the API's download route: the registry resolves the document for the
// caller (403 without the grant, 404 in another tenant, 409 not READY, 423 QUARANTINED), then the
// pinned version streams from the object store. No ranges: a page's link asks for the whole file.
import type { Readable } from 'node:stream';
import { physicalKey } from '../../domain/documents/storage-key';
import { AppError } from '../../domain/errors';
import type { DocumentObjectStore } from '../../integrations/docstore/object-store';
import type { DocumentView } from './document-view';
import type { RegistryCaller, RegistryClient } from './registry-client';

export interface DocumentContent {
  document: DocumentView;
  body: Readable;
}

export async function openDocumentContent(
  registry: RegistryClient,
  store: DocumentObjectStore | undefined,
  caller: RegistryCaller,
  docId: string,
): Promise<DocumentContent> {
  if (!store) throw new AppError('storage-unavailable', 'Object storage is not configured on this node');
  const r = await registry.resolve(caller, docId);
  try {
    const read = await store.read(physicalKey(caller.tenantId, r.storageKey), r.storageVersionId);
    return { document: r.document, body: read.body };
  } catch {
    throw new AppError('storage-unavailable', 'Object storage did not return the document');
  }
}
