// A test-only workflow (its own workflowsPath): the owner of a processRef, collecting
// documentAttachedSignal payloads until one arrives or `waitMs` passes. Started by a test
// (a number) or by the outbox (its contract's input object).
import { condition, setHandler } from '@temporalio/workflow';
import type { DocumentAttached } from '../../../domain/documents/signals';
import { documentAttachedSignal } from '../../../workflows/document-signals';

export async function attachmentListener(input: number | { waitMs: number }): Promise<DocumentAttached[]> {
  const received: DocumentAttached[] = [];
  setHandler(documentAttachedSignal, (d) => void received.push(d));
  await condition(() => received.length > 0, typeof input === 'number' ? input : input.waitMs);
  return received;
}
