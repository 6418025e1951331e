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
