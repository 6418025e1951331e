// A test-only workflow (its own workflowsPath): sends an outbound form through the platform
// activity and waits for it with the workflow-side helper, as a real process would.
import type { Duration } from '@temporalio/common';
import type { SendOutboundFormInput } from '../../../activities/outbound-forms';
import { awaitFormSubmitted, sendOutboundForm } from '../../../workflows/outbound-forms';

export async function outboundSender(input: { send: SendOutboundFormInput; wait: Duration }) {
  const sent = await sendOutboundForm(input.send);
  const event = await awaitFormSubmitted(sent.instanceId, input.wait);
  return { sent, event };
}
