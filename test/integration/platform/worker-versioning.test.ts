// Worker Versioning on the bundled Temporal dev server (docs/releases.md): two builds of a
// ceremony-like PINNED workflow in one Worker Deployment, B changed incompatibly. A run started on
// A keeps running on A after B became current and takes new starts; its tasks reach A's workers
// (also a freshly started one, without a cache), never B's; both runs finish with their own code.
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Worker, type WorkflowBundle } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promoteBuild, workerDeploymentOptionsFor } from '../../../workers/worker-versioning';
import { eventually } from '../../support/ceremony';
import { servers } from '../../support/servers';

const fixture = (name: string) => fileURLToPath(new URL(`../../replay/fixtures/${name}`, import.meta.url));

describe('Worker Versioning: a pinned run survives an incompatible new build', () => {
  const taskQueue = `tq-versioning-${randomBytes(4).toString('hex')}`;
  const deploymentName = `versioning-${randomBytes(4).toString('hex')}`;
  const buildA = { deploymentName, buildId: 'build-a' };
  const buildB = { deploymentName, buildId: 'build-b' };
  const running: Array<{ worker: Worker; done: Promise<void> }> = [];
  let native: NativeConnection;
  let connection: Connection;
  let client: Client;
  let bundles: { a: WorkflowBundle; b: WorkflowBundle };

  beforeAll(async () => {
    native = await NativeConnection.connect({ address: servers().temporalAddress });
    connection = await Connection.connect({ address: servers().temporalAddress });
    client = new Client({ connection });
    const [a, b] = await Promise.all(['pinned-ceremony-a.ts', 'pinned-ceremony-b.ts'].map((f) => bundleWorkflowCode({ workflowsPath: fixture(f) })));
    bundles = { a: a!, b: b! };
  });
  afterAll(async () => {
    for (const r of running) await stop(r);
    await native?.close();
    await connection?.close();
  });

  /** A worker of one build; its activity says which build ran it. */
  async function startBuild(version: typeof buildA, workflowBundle: WorkflowBundle) {
    const worker = await Worker.create({
      connection: native,
      taskQueue,
      workflowBundle,
      activities: { step: async (name: string) => `${version.buildId}:${name}` },
      workerDeploymentOptions: workerDeploymentOptionsFor(version),
    });
    const r = { worker, done: worker.run() };
    running.push(r);
    return r;
  }
  async function stop(r: { worker: Worker; done: Promise<void> }) {
    if (r.worker.getState() === 'RUNNING') r.worker.shutdown();
    await r.done;
  }
  const start = (id: string) => client.workflow.start('pinnedCeremony', { taskQueue, workflowId: `${id}-${randomBytes(4).toString('hex')}` });
  const armed = (handle: Awaited<ReturnType<typeof start>>) => eventually(() => handle.query<string[]>('steps').catch(() => []), (s) => s.some((x) => x.endsWith(':arm')));
  const pinnedTo = async (handle: Awaited<ReturnType<typeof start>>) => {
    const info = (await handle.describe()).raw.workflowExecutionInfo?.versioningInfo;
    return { behavior: info?.behavior, buildId: info?.deploymentVersion?.buildId };
  };
  const currentBuild = async () =>
    (await connection.workflowService.describeWorkerDeployment({ namespace: 'default', deploymentName })).workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId;

  it('A runs on A, B takes new starts, both finish with their own code; A history does not replay on B', async () => {
    const a = await startBuild(buildA, bundles.a);
    expect(await promoteBuild(connection.workflowService, { namespace: 'default', version: buildA })).toBe('promoted');
    const onA = await start('on-a');
    await armed(onA);
    expect(await pinnedTo(onA)).toEqual({ behavior: 1, buildId: 'build-a' }); // VERSIONING_BEHAVIOR_PINNED

    // B deploys beside A; a worker started with promote-on-start=if-none leaves A current.
    await startBuild(buildB, bundles.b);
    expect(await promoteBuild(connection.workflowService, { namespace: 'default', version: buildB, onlyIfNoCurrent: true })).toBe('another-is-current');
    expect(await currentBuild()).toBe('build-a');
    // The release step: B becomes current and takes the new starts, once the routing reached every
    // partition of the task queue. This test is about where runs go, not how fast routing spreads:
    // the wait is generous (a run in a loaded batch failed at 44.5 s, when a 40 s wait here ended).
    expect(await promoteBuild(connection.workflowService, { namespace: 'default', version: buildB, timeoutMs: 150_000 })).toBe('promoted');
    expect(await currentBuild()).toBe('build-b');
    const onB = await start('on-b');
    await armed(onB);
    expect(await pinnedTo(onB)).toEqual({ behavior: 1, buildId: 'build-b' });

    // A's worker restarts (no cache, no sticky queue): the pinned run's next task must come to A again.
    await stop(a);
    await startBuild(buildA, bundles.a);
    await onA.signal('signed');
    await onB.signal('signed');
    expect(await onA.result()).toEqual({ code: 'A', steps: ['build-a:arm', 'build-a:seal'] });
    expect(await onB.result()).toEqual({ code: 'B', steps: ['build-b:audit', 'build-b:arm', 'build-b:seal'] });
    expect(await pinnedTo(onA)).toEqual({ behavior: 1, buildId: 'build-a' });

    // No task of the A run ever failed (B's code would have failed it), and B's code cannot take it.
    const historyA = await onA.fetchHistory();
    expect(historyA.events!.filter((e) => e.workflowTaskFailedEventAttributes)).toEqual([]);
    const replayOnB = await Worker.runReplayHistory({ workflowBundle: bundles.b }, historyA, onA.workflowId).catch((err: unknown) => err);
    expect(replayOnB).toBeInstanceOf(DeterminismViolationError);
  }, 360_000);
});
