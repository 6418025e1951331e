// A task-scoped document that settles READY is announced to the workflow owning its processRef,
// through an outbox row written in the transaction that made it READY. Any workflow that wants
// to hear about attachments declares `defineSignal<[DocumentAttached]>(DocumentAttachedSignal.name)`
// (workflows/document-signals.ts). Delivery is at least once, in commit order: dedupe by docId.
import { signalContract } from '../process-contract';

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

export const DocumentAttachedSignal = signalContract<DocumentAttached>('documentAttachedSignal');
