/**
 * The signing ceremony as the rest of the platform sees it: one `signatureCeremony` workflow per
 * campaign (business key = the instance id, which is also the processRef of its documents), its
 * signals, and `SignatureClosure`, the message a workflow that started the campaign waits for.
 */
import { defineProcess, signalContract } from '../process-contract';
import type { SignatureInstanceState, SealState } from './instance-states';

export const SIGNATURES_CAPABILITY = 'SIGNATURES';

export interface SignatureCeremonyInput {
  tenantId: string;
  instanceId: string;
  /** ISO 8601; the expiry timer's deadline. */
  expiresAt: string | null;
}

export interface RecipientSigned {
  signerId: string;
}

/** Sent once per campaign to `waitingWorkflowId` when the ceremony ends (COMPLETED and sealed, CANCELLED, EXPIRED). */
export interface SignatureClosure {
  instanceId: string;
  status: SignatureInstanceState;
  sealStatus: SealState | null;
  sealedDocumentId: string | null;
  at: string;
}

export const SignatureClosureSignal = signalContract<SignatureClosure>('SignatureClosure');

export const SignatureCeremonyProcess = defineProcess<SignatureCeremonyInput>()({
  capability: SIGNATURES_CAPABILITY,
  workflowType: 'signatureCeremony',
  tenantOf: (i) => i.tenantId,
  businessKey: (i) => i.instanceId,
  signals: {
    recipientSigned: signalContract<RecipientSigned>('recipientSigned'),
    cancel: signalContract<Record<string, never>>('cancel'),
    resealNow: signalContract<Record<string, never>>('resealNow'),
  },
});
