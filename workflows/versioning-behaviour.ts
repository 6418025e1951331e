// Worker Versioning (docs/releases.md): the behaviour a workflow type declares, for
// setWorkflowOptions. Only a versioned worker may send it: the server refuses a workflow task
// completion that names a behaviour from a worker outside any Worker Deployment (tests' own
// workers, the time-skipping test server), and such a worker still reports a build id of its own
// but no deployment name. So the declaration applies where a deployment name is present.
import type { VersioningBehavior, WorkflowDefinitionOptions } from '@temporalio/common';
import { workflowInfo } from '@temporalio/workflow';

export type VersioningDeclaration = (() => WorkflowDefinitionOptions) & { readonly behaviour: VersioningBehavior };

export function versioningBehaviour(behaviour: VersioningBehavior): VersioningDeclaration {
  return Object.assign(() => (workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior: behaviour } : {}), { behaviour });
}
