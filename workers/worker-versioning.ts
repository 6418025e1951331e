// Worker Versioning (docs/releases.md): each worker declares its Worker Deployment and build, a
// run stays on the build it started on (PINNED) or moves at its next task (AUTO_UPGRADE), and a
// build takes new starts once it is the deployment's current version. This file names the build,
// builds the worker's deployment options, and promotes or ramps a build through the frontend.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Connection } from '@temporalio/client';
import { isGrpcServiceError } from '@temporalio/client';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import type { WorkerOptions } from '@temporalio/worker';
import type { Settings } from '../domain/settings';

type WorkflowService = Connection['workflowService'];

const COMPLETED = 2; // temporal.api.enums.v1.RoutingConfigUpdateState.ROUTING_CONFIG_UPDATE_STATE_COMPLETED
const IDENTITY = 'platform-release';

/**
 * `temporal.build-id`, else the package version plus the commit when one is known: env
 * `GIT_COMMIT` (set by a container build, which has no .git), else the checkout's HEAD.
 */
export function buildIdOf(settings: Pick<Settings, 'temporal.build-id'>, env: Record<string, string | undefined> = process.env): string {
  if (settings['temporal.build-id']) return settings['temporal.build-id'];
  const root = new URL('../', import.meta.url);
  const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
  const commit = env.GIT_COMMIT?.trim().slice(0, 12) || headCommit(root);
  return commit ? `${version}-${commit}` : version;
}

function headCommit(root: URL): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined; // no git, or not a checkout: the version alone
  }
}

export function deploymentVersionOf(settings: Pick<Settings, 'temporal.deployment-name' | 'temporal.build-id'>): WorkerDeploymentVersion {
  return { deploymentName: settings['temporal.deployment-name'], buildId: buildIdOf(settings) };
}

/**
 * Versioning on, this build. The default only covers a workflow type that declares nothing
 * (each platform type declares its own, test/replay/versioning-declarations.test.ts): PINNED, so
 * an undeclared type never meets new code in the middle of a run.
 */
export function workerDeploymentOptionsFor(version: WorkerDeploymentVersion): NonNullable<WorkerOptions['workerDeploymentOptions']> {
  return { useWorkerVersioning: true, version, defaultVersioningBehavior: 'PINNED' };
}

export interface PromoteOptions {
  namespace: string;
  version: WorkerDeploymentVersion;
  /** Percentage of new starts sent to the build while the current version keeps the rest; absent: make it current. */
  rampPercent?: number;
  /** `if-none`: only when the deployment has no current version yet. */
  onlyIfNoCurrent?: boolean;
  /** How long to wait for the build's pollers to register and the routing to reach every task queue. */
  timeoutMs?: number;
  /**
   * Wait only until this task queue's workflow queue routes to the build, not for
   * the deployment to record that every partition of every queue has it. Only for a deployment
   * with no other build: a start that meets a partition before the routing does waits in that
   * partition's backlog, which Temporal dispatches by the routing it holds when it hands the task
   * out, so it still lands on this build.
   */
  awaitTaskQueue?: string;
}

export type PromoteOutcome = 'promoted' | 'ramping' | 'already-current' | 'another-is-current';

/**
 * Makes the build current (or ramping), once its workers polled: the frontend refuses a version
 * it has seen no poller of, so a worker that just started is retried until it registered. After a
 * change it waits until the new routing reached every task queue, so a start made afterwards lands
 * on this build; a build that is current already changes nothing and waits for nothing.
 */
export async function promoteBuild(service: WorkflowService, options: PromoteOptions): Promise<PromoteOutcome> {
  const { namespace, version } = options;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    try {
      const described = await service.describeWorkerDeployment({ namespace, deploymentName: version.deploymentName });
      const routing = described.workerDeploymentInfo?.routingConfig;
      const current = routing?.currentDeploymentVersion?.buildId || undefined;
      if (options.rampPercent === undefined) {
        // Nothing to change: a restarted worker of the current build must not wait on (or fail by)
        // a routing propagation another promotion started; that one waits for it.
        if (current === version.buildId) return 'already-current';
        if (current && options.onlyIfNoCurrent) return 'another-is-current';
        await service.setWorkerDeploymentCurrentVersion({
          namespace,
          deploymentName: version.deploymentName,
          buildId: version.buildId,
          conflictToken: described.conflictToken,
          identity: IDENTITY,
        });
        await (options.awaitTaskQueue ? waitForTaskQueue(service, options, options.awaitTaskQueue, deadline) : waitForRouting(service, options, deadline));
        return 'promoted';
      }
      await service.setWorkerDeploymentRampingVersion({
        namespace,
        deploymentName: version.deploymentName,
        buildId: version.buildId,
        percentage: options.rampPercent,
        conflictToken: described.conflictToken,
        identity: IDENTITY,
      });
      await waitForRouting(service, options, deadline);
      return 'ramping';
    } catch (err) {
      // NOT_FOUND (no deployment yet), FAILED_PRECONDITION (no poller of the build seen yet) and a
      // lost conflict-token race are all "try again"; anything else is the caller's to see.
      if (!isRetryable(err)) throw err;
      if (Date.now() > deadline) {
        throw new Error(`${version.deploymentName} ${version.buildId} not promoted in time; last answer: ${(err as Error).message}`, { cause: err });
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

function waitForRouting(service: WorkflowService, options: PromoteOptions, deadline: number) {
  const { namespace, version } = options;
  return pollUntil(
    () => service.describeWorkerDeployment({ namespace, deploymentName: version.deploymentName }),
    (d) => d?.workerDeploymentInfo?.routingConfigUpdateState === COMPLETED,
    deadline,
    (d) => `${version.deploymentName}: routing update state ${d?.workerDeploymentInfo?.routingConfigUpdateState}, not completed in time`,
  );
}

const WORKFLOW_QUEUE = 1; // TASK_QUEUE_TYPE_WORKFLOW

// Only the workflow queue: a run's activities go to its own build, whatever their queue's routing.
function waitForTaskQueue(service: WorkflowService, options: PromoteOptions, taskQueue: string, deadline: number) {
  const { namespace, version } = options;
  return pollUntil(
    () => service.describeTaskQueue({ namespace, taskQueue: { name: taskQueue }, taskQueueType: WORKFLOW_QUEUE }),
    (d) => d?.versioningInfo?.currentDeploymentVersion?.buildId === version.buildId,
    deadline,
    () => `${taskQueue}: does not route to ${version.buildId} in time`,
  );
}

/** Looks every 100 ms until `done` holds, or throws `late` (given the last answer) past the deadline. */
async function pollUntil<T>(look: () => Promise<T>, done: (answer: T | undefined) => boolean, deadline: number, late: (answer: T | undefined) => string) {
  for (;;) {
    const answer = await lookAgainOnRetryable(look());
    if (done(answer)) return;
    if (Date.now() > deadline) throw new Error(late(answer));
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A look that failed for a passing reason is undefined (look again): thrown back into
 * promoteBuild's loop, it would find the build current already and return without the wait.
 */
function lookAgainOnRetryable<T>(look: Promise<T>): Promise<T | undefined> {
  return look.catch((err: unknown) => {
    if (isRetryable(err)) return undefined;
    throw err;
  });
}

// gRPC status codes: ABORTED 10 (conflict token), FAILED_PRECONDITION 9, NOT_FOUND 5, UNAVAILABLE 14.
const RETRYABLE = new Set([5, 9, 10, 14]);

function isRetryable(err: unknown) {
  return isGrpcServiceError(err) && RETRYABLE.has(err.code);
}
