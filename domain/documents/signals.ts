// Finalize of a task-scoped document tells the owning workflow (best effort). The name is the
// contract between the registry and any workflow that wants to hear about attachments: declare
// `defineSignal<[DocumentAttached]>(DOCUMENT_ATTACHED_SIGNAL)` (workflows/document-signals.ts).

export const DOCUMENT_ATTACHED_SIGNAL = 'documentAttachedSignal';

export interface DocumentAttached {
  docId: string;
  tenantId: string;
  processRef: string;
  taskId: string;
  kind: string;
  capability: string;
  filename: string;
  contentType: string;
  sizeBytes: number | null;
  sha256: string | null;
}
