// A test-only workflow (its own workflowsPath): starts a signing campaign through the platform
// activity and waits for its SignatureClosure, as a business process would.
import type { Duration } from '@temporalio/common';
import type { StartSignatureCampaignInput } from '../../../activities/signatures';
import { awaitSignatureClosure, startSignatureCampaign } from '../../../workflows/signature-closure';

export async function signatureCampaigner(input: { start: StartSignatureCampaignInput; wait: Duration }) {
  const { instanceId } = await startSignatureCampaign(input.start);
  const closure = await awaitSignatureClosure(instanceId, input.wait);
  return { instanceId, closure };
}
