// The registry's three guard layers. Layer 1 (tenant) is the identity middleware in front of
// every documents route; these are layer 2 (capability of the document) and layer 3 (context).
// Layer 2 is decided from the caller snapshot that middleware loaded, so it adds no round trip.
import type { DbOrTx } from '../../db/client';
import { outboxWorkflowFor } from '../../db/queries/documents';
import { DOCUMENT_CAPABILITIES } from '../../db/schema/documents';
import { forbidden } from '../../domain/errors';
import { assertCapabilityAccess, hasCapabilityAccess } from '../../domain/access/capability-access';
import type { RegistryCaller } from './registry-client';

/** The capability-guard middleware's layers and codes, for a capability named by the document. */
export function assertCapability(caller: RegistryCaller, code: string, mode: 'read' | 'write') {
  assertCapabilityAccess(caller.snapshot, code, mode);
}

/** Document capabilities the caller may read (any effective grant) or write (read-write). */
export function documentCapabilities(caller: RegistryCaller, mode: 'read' | 'write'): string[] {
  return DOCUMENT_CAPABILITIES.filter((code) => hasCapabilityAccess(caller.snapshot, code, mode));
}

/**
 * Layer 3. Every document names its context: a processRef (case level) and optionally a
 * taskId. For SIGNATURES and EMAIL that process must already exist for this tenant (recorded by
 * process-started, or started by the platform's outbox under that business key). FORMS is the
 * carve-out: form attachments are uploaded before submit, and the form's process only starts
 * on submit, so a FORMS document may open a processRef that has no process yet.
 * `recorded`: the caller has already found a process-started record for the processRef.
 */
export async function assertContext(db: DbOrTx, tenantId: string, capability: string, processRef: string, recorded: boolean) {
  if (capability === 'FORMS' || recorded) return;
  if (await outboxWorkflowFor(db, tenantId, processRef)) return;
  throw forbidden(
    'document-context-required',
    `${capability} documents need a started process for their processRef (FORMS alone may open a new one)`,
  );
}
