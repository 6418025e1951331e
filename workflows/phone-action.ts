import { ApplicationFailure, proxyActivities, setWorkflowOptions, workflowInfo } from '@temporalio/workflow';
import type { PhoneActivities, PlacedPhoneCall } from '../activities/phone';
import type { PhoneActionInput, PhoneActionOptions } from '../domain/phone/action-process';
import { PHONE_ACTION_FAILURE_TYPES, type PhoneActionNode } from '../domain/phone/workflow-action';

export type { PhoneActionInput, PhoneActionOptions };
import { TenantIdKey } from './search-attributes';
import { versioningBehaviour } from './versioning-behaviour';

const { placePhoneCall } = proxyActivities<PhoneActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: [...PHONE_ACTION_FAILURE_TYPES] },
});


/**
 * The phone workflow action for any workflow: `await runPhoneAction(node, variables)`.
 * The node's `${name}` placeholders are resolved from `variables`. A provider failure comes
 * back as a FAILED call; a caller mistake (bad node, unresolved name, number not E.164, no
 * assistant, number or key) throws a non-retryable ApplicationFailure (type PhoneActionInvalid,
 * or the operation's error code such as `invalid-customer-number`).
 */
export async function runPhoneAction(
  node: PhoneActionNode,
  variables: Record<string, unknown> = {},
  options: PhoneActionOptions = {},
): Promise<PlacedPhoneCall> {
  const tenantId = options.tenantId ?? workflowInfo().typedSearchAttributes.get(TenantIdKey);
  if (!tenantId) {
    throw ApplicationFailure.nonRetryable('Phone action needs a tenant (option tenantId or the TenantId search attribute)', 'PhoneActionInvalid');
  }
  return placePhoneCall({ tenantId, node, variables, ...(options.initiatedBy ? { initiatedBy: options.initiatedBy } : {}) });
}


/** The action as a process of its own, for callers that start workflows rather than write them. */
export async function phoneAction(input: PhoneActionInput): Promise<PlacedPhoneCall> {
  return runPhoneAction(input.node, input.variables ?? {}, input);
}
// PINNED: one activity (docs/releases.md).
setWorkflowOptions(versioningBehaviour('PINNED'), phoneAction);
