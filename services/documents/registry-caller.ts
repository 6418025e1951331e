// Who asks the document registry. A user (the proxy routes, with the identity middleware's
// snapshot) or a service principal acting without a user: a workflow, the holder of a form's
// embed token, a signer. The tenant of a principal comes from its token or its workflow, never
// from request input. What each may do: caller-rules.ts.
import type { DocumentCapability } from '../../domain/documents/document-fields';
import type { CapabilitySnapshot } from '../../domain/access/capability-access';

export interface UserCaller {
  kind: 'user';
  tenantId: string;
  userId: string;
  requestId?: string;
  /** The identity middleware's subscriptions and grants (layers 1 and 2); never sent over HTTP. */
  snapshot: CapabilitySnapshot;
}

/** A platform workflow (or its activities) working on documents of its own capability. */
export interface WorkflowCaller {
  kind: 'workflow';
  tenantId: string;
  capability: DocumentCapability;
  workflowId: string;
  requestId?: string;
}

/** The holder of a form's embed token: an anonymous respondent attaching files under the session's processRef. */
export interface EmbedCaller {
  kind: 'embed';
  tenantId: string;
  capability: 'FORMS';
  processRef: string;
  requestId?: string;
}

/** A recipient of a signature request (signing token), storing its mark under the request's processRef. */
export interface SignerCaller {
  kind: 'signer';
  tenantId: string;
  capability: 'SIGNATURES';
  processRef: string;
  signerId: string;
  requestId?: string;
}

export type ServicePrincipal = WorkflowCaller | EmbedCaller | SignerCaller;
export type RegistryCaller = UserCaller | ServicePrincipal;
