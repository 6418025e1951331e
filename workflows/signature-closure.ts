// Workflow side of campaigns started by a process: start one through the `startSignatureCampaign`
// activity (the campaign then names this workflow as the one waiting), and wait durably for its
// `SignatureClosure` signal, delivered through the outbox when the ceremony ends.
import type { Duration } from '@temporalio/common';
import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { SignatureActivities } from '../activities/signatures';
import { SignatureClosureSignal, type SignatureClosure } from '../domain/signatures/ceremony-process';

export const signatureClosureSignal = defineSignal<[SignatureClosure]>(SignatureClosureSignal.name);

const acts = proxyActivities<SignatureActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 20 },
});

/** Starts a campaign for this workflow (idempotent across activity retries). */
export const startSignatureCampaign = acts.startSignatureCampaign;

/** Kept on globalThis, which the SDK gives each workflow its own of, rather than in module state. */
const KEY = '__platformSignatureClosures';

function closures(): Map<string, SignatureClosure> {
  const scope = globalThis as unknown as Record<string, Map<string, SignatureClosure> | undefined>;
  let byInstance = scope[KEY];
  if (!byInstance) {
    const known = new Map<string, SignatureClosure>();
    // Delivery is at least once: the first closure of an instance is kept.
    setHandler(signatureClosureSignal, (c) => void (known.has(c.instanceId) || known.set(c.instanceId, c)));
    scope[KEY] = byInstance = known;
  }
  return byInstance;
}

/** The campaign's closure, or null when `timeout` passes first. Closures that arrived earlier count. */
export async function awaitSignatureClosure(instanceId: string, timeout: Duration): Promise<SignatureClosure | null> {
  const known = closures();
  const arrived = await condition(() => known.has(instanceId), timeout);
  return arrived ? known.get(instanceId)! : null;
}
