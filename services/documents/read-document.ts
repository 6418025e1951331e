// Reading a stored document's bytes below the API, for services that work on a whole file (the
// signing session and the seal read a definition's source PDF). The registry decides access as
// for every caller: another tenant's or an out-of-scope document fails as it would on the API.
import { physicalKey } from '../../domain/documents/storage-key';
import { AppError } from '../../domain/errors';
import type { DocumentObjectStore } from '../../integrations/docstore/object-store';
import type { RegistryCaller } from './registry-caller';
import type { RegistryClient } from './registry-client';

/** The current version's bytes, whole: only for files the caller bounded when it stored them. */
export async function readDocumentBytes(registry: RegistryClient, store: DocumentObjectStore | undefined, caller: RegistryCaller, docId: string): Promise<Buffer> {
  if (!store) throw new AppError('storage-unavailable', 'Object storage is not configured on this node');
  const r = await registry.resolve(caller, docId);
  const read = await store.read(physicalKey(caller.tenantId, r.storageKey), r.storageVersionId);
  const chunks: Buffer[] = [];
  for await (const chunk of read.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
