// The phone workflow action as a process of its own, for callers that start workflows rather
// than write them. Run as a child workflow or started directly under the caller's own id, so it
// has no business key of its own (the call it places has one).
import { defineProcess } from '../process-contract';
import { PHONE_CAPABILITY } from './call-process';
import type { PhoneActionNode } from './workflow-action';

export interface PhoneActionOptions {
  /** Defaults to the calling workflow's TenantId search attribute. */
  tenantId?: string;
  /** Defaults to `workflow:<calling workflow id>`. */
  initiatedBy?: string;
}

export interface PhoneActionInput extends PhoneActionOptions {
  node: PhoneActionNode;
  variables?: Record<string, unknown>;
}

export const PhoneActionProcess = defineProcess<PhoneActionInput>()({
  capability: PHONE_CAPABILITY,
  workflowType: 'phoneAction',
  tenantOf: (i) => i.tenantId ?? '',
  businessKey: null,
  signals: {},
});
