import { defineSignal } from '@temporalio/workflow';
import { DocumentAttachedSignal, type DocumentAttached } from '../domain/documents/signals';

/**
 * Delivered through the outbox (at least once, in commit order) to the workflow owning a document's processRef when a task-scoped
 * document becomes READY. Any workflow may `setHandler(documentAttachedSignal, ...)`.
 */
export const documentAttachedSignal = defineSignal<[DocumentAttached]>(DocumentAttachedSignal.name);
