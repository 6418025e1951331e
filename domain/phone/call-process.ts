/**
 * The per-call process, as seen from outside the workflow: its contract (type name, business key,
 * the message that settles it) and the rule that bounds its provider look-ups. Plain data so the
 * API, the activities and the workflow bundle share it without importing each other.
 */
import { defineProcess, signalContract } from '../process-contract';

export const PHONE_CAPABILITY = 'PHONE';

export interface PhoneCallProcessInput {
  tenantId: string;
  callId: string;
}

export interface PhoneCallEnded {
  callId: string;
  status: 'ENDED' | 'FAILED';
  endedReason: string | null;
}

export interface PhoneCallCancelled {
  callId: string;
}

export interface ReconcilePolicy {
  /** Wait for PhoneCallEnded this long before the first provider look-up. */
  afterMs: number;
  /** Wait between look-ups while the provider reports the call as running or cannot be asked. */
  retryMs: number;
  /** Look-ups in all; afterwards the process only waits for the signal. */
  maxAttempts: number;
}

/**
 * One process per call (business key = call id), enqueued with the call row. Spec, Events 3:
 * PhoneCallEnded is correlated into the parked process; it is an outbox row written in the
 * transaction that makes the call terminal, delivered at least once (the workflow keeps the first).
 */
export const PhoneCallProcess = defineProcess<PhoneCallProcessInput>()({
  capability: PHONE_CAPABILITY,
  workflowType: 'phoneCall',
  tenantOf: (i) => i.tenantId,
  businessKey: (i) => i.callId,
  signals: {
    ended: signalContract<PhoneCallEnded>('PhoneCallEnded'),
    /** An attempt ended and the redial policy follows it with another (phone_call_redials): not the call's end. */
    attemptEnded: signalContract<PhoneCallEnded>('PhoneCallAttemptEnded'),
    /** A SCHEDULED call (first or redial attempt) of this chain was cancelled. */
    cancelled: signalContract<PhoneCallCancelled>('PhoneCallCancelled'),
  },
});
