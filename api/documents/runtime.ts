import type { Logger } from 'pino';
import { AppError } from '../../domain/errors';
import { physicalKey, type DocumentObjectStore } from '../../integrations/docstore/object-store';
import { createObjectStore, createScanner, type Scanner } from '../../integrations/docstore/settle';
import type { AppDeps } from '../deps';
import { HttpRegistryClient } from './http-registry-client';
import type { RegistryCaller, RegistryClient, Removal } from './registry-client';
import { DocumentRegistry } from './registry-service';
import { UploadSlots } from './upload-slots';

/** What the proxy tier works with: one registry client, the object store and the scanner. */
export class DocumentsRuntime {
  readonly registry: RegistryClient;
  readonly store: DocumentObjectStore | undefined;
  readonly scanner: Scanner;
  readonly now: () => Date;
  readonly uploadSlots: UploadSlots;

  constructor(
    deps: AppDeps,
    /** The in-process registry, used unless `docstore.registry-url` names a remote one. */
    local: DocumentRegistry,
  ) {
    const { settings } = deps;
    const url = settings['docstore.registry-url'];
    this.registry = url ? new HttpRegistryClient({ baseUrl: url, internalKey: settings['internal.key'] ?? '' }) : local;
    this.store = createObjectStore(settings, deps.s3);
    this.scanner = createScanner(settings);
    this.now = deps.clock ?? (() => new Date());
    this.uploadSlots = new UploadSlots(settings['docstore.upload-concurrency']);
  }

  requireStore(): DocumentObjectStore {
    if (!this.store) throw new AppError('storage-unavailable', 'Object storage is not configured on this node');
    return this.store;
  }

  /** After a soft delete: a delete marker when retained (the locked version stays), every version when never retained. */
  async dropObject(tenantId: string, removal: Removal): Promise<void> {
    const store = this.requireStore();
    const key = physicalKey(tenantId, removal.storageKey);
    if (removal.hardDelete) await store.purge(key);
    else await store.hide(key);
  }

  /** After a failed upload: soft-delete the PENDING row and drop whatever reached storage (best effort). */
  async discard(caller: RegistryCaller, docId: string, version: number, log: Logger): Promise<void> {
    try {
      await this.dropObject(caller.tenantId, await this.registry.remove(caller, docId, version));
    } catch (err) {
      log.warn({ docId, err: (err as Error).message }, 'could not discard a failed upload');
    }
  }
}
