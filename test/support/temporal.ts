import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, DefaultLogger, type WorkerOptions } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Database } from '../../db/client';
import { OutboxDispatcher, temporalSignaller, temporalStarter } from '../../workers/dispatcher';
import { workflowsPath } from '../../workers/worker-process';
import { buildIdOf, promoteBuild, workerDeploymentOptionsFor } from '../../workers/worker-versioning';
import { servers } from './servers';

let runtimeInstalled = false;

export interface TestWorker {
  client: Client;
  taskQueue: string;
  stop(): Promise<void>;
}

/**
 * A real worker on the run's Temporal server, on a task queue of its own so test files never
 * pick up each other's workflows. Activities are whatever the test passes. Versioned as in
 * production (a Worker Deployment of its own, named after the queue, so no test sees another's
 * routing), and its build made current before it is handed out, so every start lands on it.
 */
export async function startTestWorker(
  activities: object,
  taskQueue = `tq-${randomBytes(5).toString('hex')}`,
  options: Pick<WorkerOptions, 'plugins'> = {},
): Promise<TestWorker> {
  if (!runtimeInstalled) {
    runtimeInstalled = true;
    Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
  }
  const address = servers().temporalAddress;
  const nativeConnection = await NativeConnection.connect({ address });
  const version = { deploymentName: `test-${taskQueue}`, buildId: buildIdOf({ 'temporal.build-id': undefined }) };
  const worker = await Worker.create({
    connection: nativeConnection,
    taskQueue,
    workflowsPath,
    activities,
    workerDeploymentOptions: workerDeploymentOptionsFor(version),
    ...options,
  });
  const running = worker.run();
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  // The deployment is this queue's alone, so waiting for Temporal's own record that the routing
  // reached every partition adds nothing a test needs (and stalled for minutes in a loaded run).
  await promoteBuild(connection.workflowService, { namespace: 'default', version, awaitTaskQueue: taskQueue }).catch(async (err) => {
    worker.shutdown();
    await running;
    await nativeConnection.close();
    await connection.close();
    throw err;
  });
  return {
    client,
    taskQueue,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await nativeConnection.close();
      await connection.close();
    },
  };
}

/**
 * The outbox dispatcher as tests drive it (by `dispatchOnce`; the 60 s poll never fires in a test)
 * on a worker's client and task queue: three attempts, 100 ms backoff.
 */
export function testDispatcher(ctx: { db: Database; deps: { logger: Logger } }, target: { client: Client; taskQueue: string }, capabilities: string[]) {
  return new OutboxDispatcher({
    database: ctx.db,
    logger: ctx.deps.logger,
    startWorkflow: temporalStarter(target.client, target.taskQueue),
    signals: temporalSignaller(target.client, target.taskQueue),
    capabilities,
    pollMs: 60_000,
    batchSize: 50,
    maxAttempts: 3,
    backoffMs: 100,
  });
}
