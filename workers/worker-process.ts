import { DefaultLogger, NativeConnection, Runtime as TemporalRuntime, Worker, type LogLevel } from '@temporalio/worker';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { createActivities } from '../activities/index';
import type { Database } from '../db/client';
import { OutboxDispatcher, temporalSignaller, temporalStarter } from './dispatcher';
import { FormEventCorrelator } from './form-event-correlator';
import type { Runtime } from './runtime';
import { ensureSchedules } from './schedules';
import type { Settings } from '../domain/settings';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

export interface RunningWorker {
  stop(): Promise<void>;
  done: Promise<void>;
}

/** The Temporal worker plus, when enabled on this node, the outbox dispatcher. */
export async function startWorkerProcess(
  settings: Settings,
  runtime: Runtime,
  temporalAddress: string,
  logger: Logger,
): Promise<RunningWorker> {
  installTemporalLogging(logger);
  await ensureSchedules(runtime.temporal, settings, logger);
  const connection = await NativeConnection.connect({ address: temporalAddress });
  const worker = await Worker.create({
    connection,
    namespace: settings['temporal.namespace'],
    taskQueue: settings['temporal.task-queue'],
    workflowsPath,
    activities: createActivities({ db: runtime.database.db, settings, logger, s3: runtime.s3 }),
  });
  const running = worker.run();
  const dispatcher = settings['dispatcher.enabled'] ? createDispatcher(settings, runtime.database, runtime, logger) : undefined;
  await dispatcher?.start();
  // The forms event rail's correlator runs wherever the dispatcher does: it only writes outbox rows.
  const correlator = dispatcher ? FormEventCorrelator.fromSettings(runtime.database, logger, settings) : undefined;
  await correlator?.start();
  logger.info(
    { taskQueue: settings['temporal.task-queue'], dispatcher: dispatcher ? settings['dispatcher.capabilities'] : 'off' },
    'worker started',
  );
  return {
    done: running,
    async stop() {
      await correlator?.stop();
      await dispatcher?.stop();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running.catch((err) => logger.error({ err }, 'worker stopped with an error'));
      await connection.close();
    },
  };
}

export function createDispatcher(settings: Settings, database: Database, runtime: Pick<Runtime, 'temporal'>, logger: Logger) {
  return new OutboxDispatcher({
    database,
    logger: logger.child({ component: 'dispatcher' }),
    startWorkflow: temporalStarter(runtime.temporal, settings['temporal.task-queue']),
    signals: temporalSignaller(runtime.temporal, settings['temporal.task-queue']),
    capabilities: settings['dispatcher.capabilities'],
    pollMs: settings['dispatcher.poll-ms'],
    batchSize: settings['dispatcher.batch-size'],
    maxAttempts: settings['dispatcher.max-attempts'],
    backoffMs: settings['dispatcher.backoff-ms'],
  });
}

let runtimeInstalled = false;

/** Routes the SDK's own log lines into our JSON logger (warnings and worse only). */
function installTemporalLogging(logger: Logger) {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const sdk = logger.child({ component: 'temporal-sdk' });
  const map: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
    TRACE: 'trace',
    DEBUG: 'debug',
    INFO: 'info',
    WARN: 'warn',
    ERROR: 'error',
  };
  // shutdownSignals: [] — our own signal handler owns the shutdown order.
  TemporalRuntime.install({
    shutdownSignals: [],
    logger: new DefaultLogger('WARN', (entry) => sdk[map[entry.level]](entry.meta ?? {}, entry.message)),
  });
}
