import { defineSignal } from '@temporalio/workflow';
import { DOCUMENT_ATTACHED_SIGNAL, type DocumentAttached } from '../domain/documents/signals';

/**
 * Sent (best effort) to the workflow owning a document's processRef when a task-scoped
 * document becomes READY. Any workflow may `setHandler(documentAttachedSignal, ...)`.
 */
export const documentAttachedSignal = defineSignal<[DocumentAttached]>(DOCUMENT_ATTACHED_SIGNAL);
