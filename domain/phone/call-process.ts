/**
 * The per-call process, as seen from outside the workflow: its type name, the message that
 * settles it and the rule that bounds its provider look-ups. Plain data so the API, the
 * activities and the workflow bundle share it without importing each other.
 */
export const PHONE_CAPABILITY = 'PHONE';
export const PHONE_CALL_WORKFLOW = 'phoneCall';
/** Spec, Events 3: the message correlated into the parked call process. */
export const PHONE_CALL_ENDED_SIGNAL = 'PhoneCallEnded';

export interface PhoneCallProcessInput {
  tenantId: string;
  callId: string;
}

export interface PhoneCallEnded {
  callId: string;
  status: 'ENDED' | 'FAILED';
  endedReason: string | null;
}

export interface ReconcilePolicy {
  /** Wait for PhoneCallEnded this long before the first provider look-up. */
  afterMs: number;
  /** Wait between look-ups while the provider reports the call as running or cannot be asked. */
  retryMs: number;
  /** Look-ups in all; afterwards the process only waits for the signal. */
  maxAttempts: number;
}

export const RECONCILIATION_RULE =
  'A call process that has not received PhoneCallEnded within phone.reconcile-after-ms asks the provider for the call (GET /call/{id}). ' +
  'If the provider reports it ended, the call is settled from that answer (ENDED or FAILED by the endedReason classification) and the process closes. ' +
  'If the provider has no such call, or the call never got a provider id (placement interrupted), the call becomes FAILED with an errorMessage and the process closes. ' +
  'If the call is still running, or the provider cannot be reached, the process asks again after phone.reconcile-retry-ms, at most phone.reconcile-max-attempts times in all; ' +
  'after that it stops asking and only waits for PhoneCallEnded. Every attempt is logged.';
