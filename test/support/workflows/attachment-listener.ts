// A test-only workflow (its own workflowsPath): the owner of a processRef, collecting
// documentAttachedSignal payloads until one arrives or `waitMs` passes.
import { condition, setHandler } from '@temporalio/workflow';
import type { DocumentAttached } from '../../../domain/documents/signals';
import { documentAttachedSignal } from '../../../workflows/document-signals';

export async function attachmentListener(waitMs: number): Promise<DocumentAttached[]> {
  const received: DocumentAttached[] = [];
  setHandler(documentAttachedSignal, (d) => void received.push(d));
  await condition(() => received.length > 0, waitMs);
  return received;
}
