// What the test workers' promotion (test/support/temporal.ts) relies on: a start made before a
// fresh deployment's build is current is not lost or sent elsewhere; it waits in the queue and
// runs on the build once the build is current and the queue routes to it. So a promotion of a
// deployment with no other build need not wait for Temporal to record that the routing reached
// every partition.
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promoteBuild, workerDeploymentOptionsFor } from '../../../workers/worker-versioning';
import { servers } from '../../support/servers';

const fixture = fileURLToPath(new URL('../../replay/fixtures/pinned-ceremony-a.ts', import.meta.url));

describe('a start before the build is current', () => {
  const taskQueue = `tq-backlog-${randomBytes(4).toString('hex')}`;
  const version = { deploymentName: `backlog-${randomBytes(4).toString('hex')}`, buildId: 'build-a' };
  let native: NativeConnection;
  let connection: Connection;
  let worker: Worker;
  let done: Promise<void>;

  beforeAll(async () => {
    native = await NativeConnection.connect({ address: servers().temporalAddress });
    connection = await Connection.connect({ address: servers().temporalAddress });
    worker = await Worker.create({
      connection: native,
      taskQueue,
      workflowBundle: await bundleWorkflowCode({ workflowsPath: fixture }),
      activities: { step: async (name: string) => `${version.buildId}:${name}` },
      workerDeploymentOptions: workerDeploymentOptionsFor(version),
    });
    done = worker.run();
  });
  afterAll(async () => {
    if (worker?.getState() === 'RUNNING') worker.shutdown();
    await done;
    await native?.close();
    await connection?.close();
  });

  it('waits in the queue and runs on the build once it is current', async () => {
    const client = new Client({ connection });
    const handle = await client.workflow.start('pinnedCeremony', { taskQueue, workflowId: `early-${randomBytes(4).toString('hex')}` });
    // The worker polls, but no build is current: the task is not handed to it.
    await new Promise((r) => setTimeout(r, 2_000));
    const before = await handle.fetchHistory();
    expect(before.events!.some((e) => e.workflowTaskStartedEventAttributes)).toBe(false);

    expect(await promoteBuild(connection.workflowService, { namespace: 'default', version, awaitTaskQueue: taskQueue, timeoutMs: 120_000 })).toBe('promoted');
    await handle.signal('signed');
    expect(await handle.result()).toEqual({ code: 'A', steps: ['build-a:arm', 'build-a:seal'] });
    const info = (await handle.describe()).raw.workflowExecutionInfo?.versioningInfo;
    expect({ behavior: info?.behavior, buildId: info?.deploymentVersion?.buildId }).toEqual({ behavior: 1, buildId: 'build-a' });
  }, 180_000);
});
