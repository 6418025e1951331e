// A platform worker in a process of its own (the composition root's activities, the platform's
// workflows), so a test can SIGKILL it in the middle of a delivery's retry schedule. Reads its
// settings from the environment like any worker node; versioned as in production (a Worker
// Deployment named after its task queue, its build made current); prints `ready` once it polls.
import { Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import pino from 'pino';
import { createDatabase } from '../../../db/client';
import { loadSettings } from '../../../workers/config';
import { createActivities } from '../../../workers/worker-activities';
import { workflowsPath } from '../../../workers/worker-process';
import { buildIdOf, promoteBuild, workerDeploymentOptionsFor } from '../../../workers/worker-versioning';

const settings = loadSettings();
const taskQueue = settings['temporal.task-queue'];
const address = settings['temporal.address']!;
Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
const database = createDatabase(settings['database.url']!, { max: 4 });
const version = { deploymentName: `test-${taskQueue}`, buildId: buildIdOf({ 'temporal.build-id': undefined }) };
const worker = await Worker.create({
  connection: await NativeConnection.connect({ address }),
  taskQueue,
  workflowsPath,
  activities: createActivities({ db: database.db, settings, logger: pino({ level: 'silent' }) }),
  workerDeploymentOptions: workerDeploymentOptionsFor(version),
});
const running = worker.run();
const connection = await Connection.connect({ address });
await promoteBuild(connection.workflowService, { namespace: settings['temporal.namespace'], version });
process.stdout.write('ready\n');
await running;
