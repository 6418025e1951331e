import { condition, defineQuery, defineSignal, log, proxyActivities, setHandler, setWorkflowOptions } from '@temporalio/workflow';
import type { PhoneActivities } from '../activities/phone';
import { PhoneCallProcess, type PhoneCallEnded, type PhoneCallProcessInput } from '../domain/phone/call-process';
import type { CallStatus } from '../domain/phone/call-status';
import { versioningBehaviour } from './versioning-behaviour';

/** Spec, Events 3: correlated by the webhook (or anyone) when the call is terminal. */
export const phoneCallEndedSignal = defineSignal<[PhoneCallEnded]>(PhoneCallProcess.signals.ended.name);

export type PhoneCallPhase = 'opening' | 'waiting' | 'reconciling' | 'waiting-for-signal' | 'closing' | 'closed';

export interface PhoneCallProcessState {
  phase: PhoneCallPhase;
  reconcileAttempts: number;
  ended: PhoneCallEnded | null;
}
export const phoneCallStateQuery = defineQuery<PhoneCallProcessState>('phoneCallState');

export interface PhoneCallProcessResult {
  callId: string;
  status: CallStatus | null;
  /** already-terminal: the call ended before the process started (the early-end race). */
  settledBy: 'signal' | 'reconciliation' | 'already-terminal' | 'missing';
  reconcileAttempts: number;
}

const acts = proxyActivities<PhoneActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * One process per call, started by the outbox dispatcher. It waits at a receive step for
 * PhoneCallEnded and records the outcome; no branching, retry or redial (spec, States). Beyond
 * the spec, because the provider does not redeliver webhooks, a call that stays silent past
 * the reconcile policy is settled from the provider's own record (bounded look-ups).
 */
export async function phoneCall(input: PhoneCallProcessInput): Promise<PhoneCallProcessResult> {
  let ended: PhoneCallEnded | null = null;
  let phase: PhoneCallPhase = 'opening';
  let attempts = 0;
  setHandler(phoneCallEndedSignal, (e) => {
    ended ??= e;
  });
  setHandler(phoneCallStateQuery, () => ({ phase, reconcileAttempts: attempts, ended }));

  const result = (status: CallStatus | null, settledBy: PhoneCallProcessResult['settledBy']) => ({
    callId: input.callId,
    status,
    settledBy,
    reconcileAttempts: attempts,
  });
  const close = async (r: PhoneCallProcessResult) => {
    phase = 'closing';
    await acts.closePhoneCallProcess(input.tenantId, input.callId, r.settledBy);
    phase = 'closed';
    return r;
  };

  const opened = await acts.openPhoneCallProcess(input.tenantId, input.callId);
  if (!opened) return close(result(null, 'missing'));
  // The state check at start: a call that ended before this process existed (its signal found
  // no workflow) is settled here.
  if (opened.terminal) return close(result(opened.status, 'already-terminal'));

  const policy = opened.reconcile;
  let wait = policy.afterMs;
  for (;;) {
    phase = 'waiting';
    if (await condition(() => ended !== null, wait)) return close(result(ended!.status, 'signal'));
    if (attempts >= policy.maxAttempts) {
      log.warn('no PhoneCallEnded and reconciliation attempts exhausted; waiting for the signal only', {
        callId: input.callId,
        attempts,
      });
      phase = 'waiting-for-signal';
      await condition(() => ended !== null);
      return close(result(ended!.status, 'signal'));
    }
    attempts += 1;
    phase = 'reconciling';
    const outcome = await acts.reconcilePhoneCall(input.tenantId, input.callId, attempts);
    log.info('reconciliation attempt', { callId: input.callId, attempt: attempts, answer: outcome.answer });
    if (outcome.terminal) return close(result(outcome.status, 'reconciliation'));
    wait = policy.retryMs;
  }
}
// PINNED: a call lasts minutes and reconciliation hours; the old build drains soon (docs/releases.md).
setWorkflowOptions(versioningBehaviour('PINNED'), phoneCall);
