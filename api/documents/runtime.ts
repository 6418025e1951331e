import type { Logger } from 'pino';
import { AppError } from '../../domain/errors';
import { createObjectStore, type DocumentObjectStore } from '../../integrations/docstore/object-store';
import { createScanner, type Scanner } from '../../integrations/docstore/scanner';
import type { DocumentRegistry } from '../../services/documents/document-registry';
import type { RegistryClient } from '../../services/documents/registry-client';
import type { RemoveDocumentDeps } from '../../services/documents/remove-document';
import type { StoreDocumentDeps } from '../../services/documents/store-document';
import { UploadSlots } from '../../services/documents/upload-slots';
import type { AppDeps } from '../deps';
import { HttpRegistryClient } from './http-registry-client';

/** What the proxy tier works with: one registry client, the object store and the scanner. */
export class DocumentsRuntime {
  readonly registry: RegistryClient;
  readonly store: DocumentObjectStore | undefined;
  readonly scanner: Scanner;
  readonly now: () => Date;
  readonly uploadSlots: UploadSlots;
  private readonly settings: AppDeps['settings'];

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
    this.settings = settings;
  }

  requireStore(): DocumentObjectStore {
    if (!this.store) throw new AppError('storage-unavailable', 'Object storage is not configured on this node');
    return this.store;
  }

  /** storeDocument's dependencies for one request (its logger carries the request id). */
  storeDeps(store: DocumentObjectStore, log: Logger): StoreDocumentDeps {
    const { registry, scanner, uploadSlots, now } = this;
    return { registry, store, scanner, uploadSlots, maxBytes: this.settings['docstore.max-bytes'], now, log };
  }

  removeDeps(log: Logger): RemoveDocumentDeps {
    return { registry: this.registry, store: this.store, log };
  }
}
