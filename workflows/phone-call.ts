import { condition, defineQuery, defineSignal, log, patched, proxyActivities, setHandler, setWorkflowOptions } from '@temporalio/workflow';
import type { PhoneActivities } from '../activities/phone';
import type { PhoneCallStatus } from '../domain/phone/call-fields';
import {
  PhoneCallProcess,
  type PhoneCallCancelled,
  type PhoneCallEnded,
  type PhoneCallProcessInput,
  type ReconcilePolicy,
} from '../domain/phone/call-process';
import { isTerminal } from '../domain/phone/call-status';
import { versioningBehaviour } from './versioning-behaviour';

/** Spec, Events 3: correlated by the webhook (or anyone) when the call is terminal. */
export const phoneCallEndedSignal = defineSignal<[PhoneCallEnded]>(PhoneCallProcess.signals.ended.name);
/** An attempt ended and the redial policy follows it with another (not the call's end). */
export const phoneCallAttemptEndedSignal = defineSignal<[PhoneCallEnded]>(PhoneCallProcess.signals.attemptEnded.name);
/** A SCHEDULED call of this chain was cancelled. */
export const phoneCallCancelledSignal = defineSignal<[PhoneCallCancelled]>(PhoneCallProcess.signals.cancelled.name);

export type PhoneCallPhase = 'opening' | 'scheduled' | 'waiting' | 'reconciling' | 'waiting-for-signal' | 'closing' | 'closed';

export interface PhoneCallProcessState {
  phase: PhoneCallPhase;
  reconcileAttempts: number;
  ended: PhoneCallEnded | null;
  /** The attempt the process is at (1 unless a redial policy placed more) and its call id. */
  attempt?: number;
  callId?: string;
}
export const phoneCallStateQuery = defineQuery<PhoneCallProcessState>('phoneCallState');

export interface PhoneCallProcessResult {
  callId: string;
  status: PhoneCallStatus | null;
  /** already-terminal: the call ended before the process started (the early-end race). */
  settledBy: 'signal' | 'reconciliation' | 'already-terminal' | 'missing' | 'cancelled' | 'refused';
  reconcileAttempts: number;
  /** The final attempt's call id and number, when a redial policy placed more than one. */
  finalCallId?: string;
  attempts?: number;
}

const acts = proxyActivities<PhoneActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

type AttemptEnd = { status: PhoneCallStatus | null; settledBy: PhoneCallProcessResult['settledBy'] };

/**
 * One process per call, started by the outbox dispatcher. It waits at a receive step for
 * PhoneCallEnded and records the outcome. Beyond the spec, because the provider does not
 * redeliver webhooks, a call that stays silent past the reconcile policy is settled from the
 * provider's own record (bounded look-ups). A SCHEDULED call (outside its calling window) waits
 * for its opening first; with a redial policy each attempt that ends unanswered, busy or failed
 * is followed by the next (its own call record, same process) until the policy's limit.
 */
export async function phoneCall(input: PhoneCallProcessInput): Promise<PhoneCallProcessResult> {
  const endedCalls = new Map<string, PhoneCallEnded>();
  const cancelledCalls = new Set<string>();
  let current = input.callId;
  let attempt = 1;
  let phase: PhoneCallPhase = 'opening';
  let attempts = 0;
  // Delivery is at least once: the first message per call counts.
  const onEnded = (e: PhoneCallEnded) => {
    if (!endedCalls.has(e.callId)) endedCalls.set(e.callId, e);
  };
  setHandler(phoneCallEndedSignal, onEnded);
  setHandler(phoneCallAttemptEndedSignal, onEnded);
  setHandler(phoneCallCancelledSignal, (e) => void cancelledCalls.add(e.callId));
  const ended = () => endedCalls.get(current) ?? null;
  setHandler(phoneCallStateQuery, () => ({ phase, reconcileAttempts: attempts, ended: ended(), attempt, callId: current }));

  const close = async (end: AttemptEnd) => {
    phase = 'closing';
    await acts.closePhoneCallProcess(input.tenantId, input.callId, end.settledBy);
    phase = 'closed';
    const r: PhoneCallProcessResult = { callId: input.callId, status: end.status, settledBy: end.settledBy, reconcileAttempts: attempts };
    return attempt > 1 ? { ...r, finalCallId: current, attempts: attempt } : r;
  };

  /** Waits until a SCHEDULED call is due (or cancelled), then has it dialled; the window may have moved meanwhile. */
  const dialWhenDue = async (callId: string, due: number): Promise<AttemptEnd | { dialled: PhoneCallStatus }> => {
    for (;;) {
      phase = 'scheduled';
      const wait = due - Date.now();
      if (cancelledCalls.has(callId) || (wait > 0 && (await condition(() => cancelledCalls.has(callId), wait)))) {
        return { status: 'CANCELLED', settledBy: 'cancelled' };
      }
      const d = await acts.dialScheduledPhoneCall(input.tenantId, callId);
      if (d.kind === 'rescheduled') {
        due = d.at;
        continue;
      }
      if (d.kind === 'dialled') return { dialled: d.status };
      return { status: d.status, settledBy: d.kind === 'refused' ? 'refused' : 'cancelled' };
    }
  };

  /** The receive step of one attempt, with reconciliation when PhoneCallEnded does not come. */
  const awaitEnd = async (status: PhoneCallStatus, policy: ReconcilePolicy): Promise<AttemptEnd> => {
    // The state check at start: a call that ended before this process existed (its signal found
    // no workflow) is settled here.
    if (isTerminal(status)) return { status, settledBy: 'already-terminal' };
    let wait = policy.afterMs;
    attempts = 0;
    for (;;) {
      phase = 'waiting';
      if (await condition(() => ended() !== null, wait)) return { status: ended()!.status, settledBy: 'signal' };
      if (attempts >= policy.maxAttempts) {
        log.warn('no PhoneCallEnded and reconciliation attempts exhausted; waiting for the signal only', {
          callId: current,
          attempts,
        });
        phase = 'waiting-for-signal';
        await condition(() => ended() !== null);
        return { status: ended()!.status, settledBy: 'signal' };
      }
      attempts += 1;
      phase = 'reconciling';
      const outcome = await acts.reconcilePhoneCall(input.tenantId, current, attempts);
      log.info('reconciliation attempt', { callId: current, attempt: attempts, answer: outcome.answer });
      if (outcome.terminal) return { status: outcome.status, settledBy: 'reconciliation' };
      wait = policy.retryMs;
    }
  };

  const opened = await acts.openPhoneCallProcess(input.tenantId, input.callId);
  if (!opened) return close({ status: null, settledBy: 'missing' });
  let status = opened.status;
  if (status === 'SCHEDULED' && patched('phone-calling-window')) {
    const dialled = await dialWhenDue(current, opened.scheduledFor ?? Date.now());
    if (!('dialled' in dialled)) return close(dialled);
    status = dialled.dialled;
  }
  for (;;) {
    const end = await awaitEnd(status, opened.reconcile);
    // Calls written before redial existed carry no policy: their processes take the old path.
    if (!opened.redial || !patched('phone-redial')) return close(end);
    const next = await acts.schedulePhoneRedial(input.tenantId, current);
    if (!next) return close(end);
    current = next.callId;
    attempt = next.attempt;
    const dialled = await dialWhenDue(next.callId, next.scheduledFor);
    if (!('dialled' in dialled)) return close(dialled);
    status = dialled.dialled;
  }
}
// PINNED: a call lasts minutes and reconciliation hours; the old build drains soon (docs/releases.md).
setWorkflowOptions(versioningBehaviour('PINNED'), phoneCall);
