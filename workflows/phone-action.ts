import { ApplicationFailure, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { PhoneActivities, PlacedPhoneCall } from '../activities/phone';
import { PHONE_ACTION_FAILURE_TYPES, type PhoneActionNode } from '../domain/phone/workflow-action';
import { TenantIdKey } from './search-attributes';

const { placePhoneCall } = proxyActivities<PhoneActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: [...PHONE_ACTION_FAILURE_TYPES] },
});

export interface PhoneActionOptions {
  /** Defaults to the calling workflow's TenantId search attribute. */
  tenantId?: string;
  /** Defaults to `workflow:<calling workflow id>`. */
  initiatedBy?: string;
}

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

export interface PhoneActionInput extends PhoneActionOptions {
  node: PhoneActionNode;
  variables?: Record<string, unknown>;
}

/** The action as a process of its own, for callers that start workflows rather than write them. */
export async function phoneAction(input: PhoneActionInput): Promise<PlacedPhoneCall> {
  return runPhoneAction(input.node, input.variables ?? {}, input);
}
