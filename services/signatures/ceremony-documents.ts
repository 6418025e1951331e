// The documents of a campaign, all SIGNATURES documents under the processRef = the instance id
// (the ceremony's business key, so the registry's context rule finds its outbox start row): the
// recipients' marks (stored by a `signer` caller) and the sealed PDF (by the ceremony, a
// `workflow` caller). The ceremony's caller also reads the definition's source PDF for the
// signing session and the seal.
import { Readable } from 'node:stream';
import { workflowIdFor } from '../../domain/process-contract';
import { AppError } from '../../domain/errors';
import { SignatureCeremonyProcess, SIGNATURES_CAPABILITY } from '../../domain/signatures/ceremony-process';
import type { RegistryCaller, WorkflowCaller } from '../documents/registry-caller';
import { storeDocument, type StoreDocumentDeps } from '../documents/store-document';

export const ceremonyCaller = (tenantId: string, instanceId: string): WorkflowCaller => ({
  kind: 'workflow',
  tenantId,
  capability: SIGNATURES_CAPABILITY,
  workflowId: workflowIdFor(SignatureCeremonyProcess.capability, tenantId, instanceId),
});

/** Stores bytes of the campaign; a quarantined mark or PDF is refused (the caller records why). */
export async function storeCeremonyDocument(
  deps: StoreDocumentDeps,
  caller: RegistryCaller,
  p: { instanceId: string; filename: string; contentType: string; bytes: Uint8Array },
): Promise<string> {
  const doc = await storeDocument(deps, caller, {
    processRef: p.instanceId,
    kind: 'SIGNATURE_ATTACHMENT',
    capability: 'SIGNATURES',
    ownerEntityId: p.instanceId,
    filename: p.filename,
    contentType: p.contentType,
    body: Readable.from([Buffer.from(p.bytes)]),
    knownMinBytes: p.bytes.length,
  });
  if (doc.status === 'QUARANTINED') throw new AppError('document-quarantined', 'The malware scan quarantined the document');
  return doc.id;
}
