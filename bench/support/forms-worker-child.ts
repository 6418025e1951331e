// The forms bench's worker node in its own process, so the bench can SIGKILL it midway: the Temporal
// worker (the platform's workflows, the form activities), the outbox dispatcher and the event
// rail's correlator, as workers/worker-process.ts runs them. Reads DATABASE_URL, TEMPORAL_ADDRESS,
// TEMPORAL_TASK_QUEUE and the forms settings like any worker node; prints "ready".
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import pino from 'pino';
import { createFormActivities } from '../../activities/forms';
import { createDatabase } from '../../db/client';
import { loadSettings } from '../../workers/config';
import { startOutboxDelivery, workflowsPath } from '../../workers/worker-process';
import { createWorkerIntegrations } from '../../workers/worker-integrations';

Runtime.install({ logger: new DefaultLogger('ERROR'), shutdownSignals: [] });
const settings = loadSettings();
const logger = pino({ level: 'error' });
const database = createDatabase(settings['database.url']!, { max: 12 });
const address = settings['temporal.address']!;
const native = await NativeConnection.connect({ address });
const worker = await Worker.create({
  connection: native,
  taskQueue: settings['temporal.task-queue'],
  workflowsPath,
  activities: createFormActivities(createWorkerIntegrations({ db: database.db, settings, logger })),
});
const client = new Client({ connection: await Connection.connect({ address }) });
void worker.run();
await startOutboxDelivery(settings, database, { temporal: client }, logger);
process.stdout.write('ready\n');
