// The one contract between whoever moves a document's bytes (storeDocument, the download and
// delete routes) and the document registry (core). Two implementations: DocumentRegistry itself
// (in-process, the default) and api/documents/http-registry-client.ts (the registry's
// /api/internal/documents routes on another node, when `docstore.registry-url` is set).
import type { RetentionPlan } from '../../domain/documents/retention';
import type { ListSelector } from '../../db/queries/documents';
import type { DocumentView } from './document-view';
import type { RegistryCaller } from './registry-caller';

export type { RegistryCaller } from './registry-caller';

export interface AuthorizeInput {
  processRef: string;
  kind: DocumentView['kind'];
  capability: DocumentView['capability'];
  taskId?: string | null;
  ownerEntityId?: string | null;
  filename: string;
  contentType: string;
  /** Re-authorize an existing PENDING document (a retried upload) at this expected version. */
  docId?: string;
  version?: number;
}

export interface Authorization {
  docId: string;
  version: number;
  /** Tenant-relative (`physicalKey` turns it into the bucket key). Never sent to a client. */
  storageKey: string;
  retention: RetentionPlan | null;
  document: DocumentView;
}

export interface FinalizeInput {
  version: number;
  sizeBytes: number;
  sha256: string;
  storageVersionId: string;
  /** ERROR keeps the document PENDING and starts the durable documentScan retry. */
  scan: 'SKIPPED' | 'CLEAN' | 'INFECTED' | 'ERROR';
  signature?: string | null;
  retention?: { mode: 'GOVERNANCE' | 'COMPLIANCE'; retainUntil: string } | null;
}

export interface Resolution {
  document: DocumentView;
  storageKey: string;
  storageVersionId: string;
}

export interface Removal {
  document: DocumentView;
  storageKey: string;
  storageVersionId: string | null;
  /** Never retained: purge every version. Retained: a plain delete that leaves the locked version. */
  hardDelete: boolean;
}

export interface ListInput {
  selector: ListSelector;
  limit: number;
  cursor?: string;
}

export interface DocumentPageResult {
  items: DocumentView[];
  nextCursor: string | null;
}

export interface ProcessStartedInput {
  processRef: string;
  processInstanceId: string;
  workflowId?: string | null;
}

export interface ProcessStartedResult {
  processRef: string;
  processInstanceId: string;
  updated: number;
}

export interface RegistryClient {
  authorize(caller: RegistryCaller, input: AuthorizeInput): Promise<Authorization>;
  finalize(caller: RegistryCaller, docId: string, input: FinalizeInput): Promise<DocumentView>;
  resolve(caller: RegistryCaller, docId: string): Promise<Resolution>;
  get(caller: RegistryCaller, docId: string): Promise<DocumentView>;
  list(caller: RegistryCaller, input: ListInput): Promise<DocumentPageResult>;
  remove(caller: RegistryCaller, docId: string, expectedVersion?: number): Promise<Removal>;
  processStarted(caller: RegistryCaller, input: ProcessStartedInput): Promise<ProcessStartedResult>;
}
