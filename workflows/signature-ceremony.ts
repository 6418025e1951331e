// One signing campaign (issue 13 §2). The database is the record: every wake-up (a recipient
// signed, cancel, re-seal now, a timer) asks an activity what is true now. While the campaign is
// live: arm the next order group and mail its links when a group completes, remind on a durable
// timer, expire at expiresAt. After the last signer: seal, and while the seal is FAILED retry on a
// durable backoff timer or at once on `resealNow`. At the end, SignatureClosure.
import { condition, defineQuery, defineSignal, makeContinueAsNewFunc, proxyActivities, setHandler, setWorkflowOptions, workflowInfo } from '@temporalio/workflow';
import type { SignatureActivities } from '../activities/signatures';
import { SignatureCeremonyProcess, type RecipientSigned, type SignatureCeremonyInput } from '../domain/signatures/ceremony-process';
import type { SealState, SignatureInstanceState } from '../domain/signatures/instance-states';
import { versioningBehaviour } from './versioning-behaviour';

const { signals } = SignatureCeremonyProcess;
export const recipientSignedSignal = defineSignal<[RecipientSigned]>(signals.recipientSigned.name);
export const cancelSignatureSignal = defineSignal<[Record<string, never>]>(signals.cancel.name);
export const resealNowSignal = defineSignal<[Record<string, never>]>(signals.resealNow.name);

export interface SignatureCeremonyResult {
  status: SignatureInstanceState;
  sealStatus: SealState | null;
  /** Seal attempts of this run (a run that continued as new starts again from 0). */
  sealAttempts: number;
}

/**
 * Failed seal attempts one run makes before it continues as new. A seal that keeps failing (a
 * timestamp authority down for days) must not grow one history without bound; the database is the
 * record, so the next run reads the campaign as COMPLETED and goes straight to sealing.
 */
export const SEAL_ATTEMPTS_PER_RUN = 10;
export const signatureCeremonyStateQuery = defineQuery<SignatureCeremonyResult>('signatureCeremonyState');

const acts = proxyActivities<SignatureActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

export async function signatureCeremony(input: SignatureCeremonyInput): Promise<SignatureCeremonyResult> {
  const { tenantId, instanceId } = input;
  let woken = false;
  let reseal = false;
  setHandler(recipientSignedSignal, () => void (woken = true));
  setHandler(cancelSignatureSignal, () => void (woken = true));
  setHandler(resealNowSignal, () => void (reseal = true));

  let state = await acts.advanceSignatureCeremony(tenantId, instanceId);
  const result: SignatureCeremonyResult = { status: state.status, sealStatus: null, sealAttempts: 0 };
  setHandler(signatureCeremonyStateQuery, () => result);
  const deadline = input.expiresAt ? Date.parse(input.expiresAt) : null;
  let nextReminder = state.reminderIntervalMs > 0 ? Date.now() + state.reminderIntervalMs : null;

  while (state.status === 'PENDING' || state.status === 'OPENED') {
    const wakeAt = Math.min(deadline ?? Infinity, nextReminder ?? Infinity);
    // A predicate already true is not handed to condition() (the SDK's advice: it piles up async contexts).
    const signalled = woken || (await condition(() => woken, wakeAt === Infinity ? undefined : Math.max(1, wakeAt - Date.now())));
    if (signalled) {
      woken = false;
      state = await acts.advanceSignatureCeremony(tenantId, instanceId);
    } else if (deadline !== null && Date.now() >= deadline) {
      state = await acts.expireSignatureCeremony(tenantId, instanceId);
    } else if (nextReminder !== null && Date.now() >= nextReminder) {
      await acts.remindSignatureRecipients(tenantId, instanceId);
      nextReminder = Date.now() + state.reminderIntervalMs;
    }
    result.status = state.status;
  }

  if (state.status === 'COMPLETED') {
    for (;;) {
      reseal = false;
      result.sealAttempts++;
      result.sealStatus = await acts.sealSignatureInstance(tenantId, instanceId);
      if (result.sealStatus !== 'FAILED') break;
      if (!reseal) await condition(() => reseal, state.resealBackoffMs);
      // After the wait, so the next run's first attempt is on time, not early. A new current build
      // is also a reason: the next run starts on it (AUTO_UPGRADE for its first task, then PINNED).
      const info = workflowInfo();
      if (result.sealAttempts >= SEAL_ATTEMPTS_PER_RUN || info.continueAsNewSuggested || info.targetWorkerDeploymentVersionChanged) {
        await makeContinueAsNewFunc<typeof signatureCeremony>({ initialVersioningBehavior: 'AUTO_UPGRADE' })(input);
      }
    }
  }
  await acts.closeSignatureCeremony(tenantId, instanceId);
  return result;
}
// PINNED: a campaign waits for weeks on the code it started with; it moves to the current build
// when it continues as new (docs/releases.md).
setWorkflowOptions(versioningBehaviour('PINNED'), signatureCeremony);
