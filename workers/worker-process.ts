import { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';
import { DefaultLogger, NativeConnection, Runtime as TemporalRuntime, Worker, type LogLevel } from '@temporalio/worker';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { createActivities } from './worker-activities';
import type { Database } from '../db/client';
import { OutboxDispatcher, temporalSignaller, temporalStarter } from './dispatcher';
import { FormEventCorrelator } from './form-event-correlator';
import type { Runtime } from './runtime';
import { ensureSchedules } from './schedules';
import { freeLoopbackPort, startMetricsServer, type MetricsListener } from './metrics-server';
import { startTracing } from '../integrations/tracing/tracing';
import type { Settings } from '../domain/settings';
import { createSealer } from '../integrations/seal/seal';
import { deploymentVersionOf, promoteBuild, workerDeploymentOptionsFor } from './worker-versioning';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

export interface RunningWorker {
  /** This process's metrics listener (with the Temporal SDK's own metrics); undefined when metrics.port is 0. */
  metrics: MetricsListener | undefined;
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
  const sdkMetricsPort = await installTemporalRuntime(logger, settings['metrics.port'] !== 0);
  const tracing = startTracing({ serviceName: settings['otel.service-name'] ?? 'platform-worker', endpoint: settings['otel.exporter-otlp-endpoint'] });
  await ensureSchedules(runtime.temporal, settings, logger);
  const connection = await NativeConnection.connect({ address: temporalAddress });
  const version = deploymentVersionOf(settings);
  const worker = await Worker.create({
    connection,
    namespace: settings['temporal.namespace'],
    taskQueue: settings['temporal.task-queue'],
    workflowsPath,
    workerDeploymentOptions: workerDeploymentOptionsFor(version),
    activities: createActivities({ db: runtime.database.db, settings, logger, s3: runtime.s3, sealPdf: createSealer({ settings, logger }) }),
    // Heartbeats reach Temporal at least every 5 s (the default sends one per 80 % of an activity's
    // heartbeat timeout): a webhook attempt's 20 s timeout then spans four, not one and a bit.
    maxHeartbeatThrottleInterval: '5 seconds',
    // Workflow and activity spans continue the trace the dispatcher's start carried in its headers.
    plugins: tracing ? [new OpenTelemetryPlugin({ resource: tracing.resource, spanProcessor: tracing.spanProcessor })] : [],
  });
  const sdkMetrics = sdkMetricsPort && (() => readSdkMetrics(sdkMetricsPort));
  const metrics = await startMetricsServer(settings, { database: runtime.database, extra: sdkMetrics || undefined }, logger);
  const running = worker.run();
  const promotion = await promoteOnStart(settings, runtime, version).catch(async (err) => {
    // Promotion was asked for and failed: a worker whose build takes no starts must not look healthy.
    worker.shutdown();
    await running.catch(() => undefined);
    await connection.close();
    await metrics?.close();
    throw err;
  });
  const delivery = settings['dispatcher.enabled'] ? await startOutboxDelivery(settings, runtime.database, runtime, logger) : undefined;
  logger.info(
    { taskQueue: settings['temporal.task-queue'], deployment: version, promotion, dispatcher: delivery ? settings['dispatcher.capabilities'] : 'off', metrics: metrics?.url },
    'worker started',
  );
  return {
    metrics,
    done: running,
    async stop() {
      await delivery?.stop();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running.catch((err) => logger.error({ err }, 'worker stopped with an error'));
      await connection.close();
      await metrics?.close();
      await tracing?.flush();
    },
  };
}

/** `temporal.promote-on-start`: `npm start` and tests make each new build current; production leaves it to a release step. */
async function promoteOnStart(settings: Settings, runtime: Runtime, version: ReturnType<typeof deploymentVersionOf>) {
  const mode = settings['temporal.promote-on-start'];
  if (mode === 'never') return 'not-asked';
  return promoteBuild(runtime.temporal.workflowService, { namespace: settings['temporal.namespace'], version, onlyIfNoCurrent: mode === 'if-none' });
}

/**
 * The outbox dispatcher and, beside it, the forms event rail's correlator (it only writes outbox
 * rows, so it runs wherever the dispatcher does): started together, stopped correlator first.
 */
export async function startOutboxDelivery(settings: Settings, database: Database, runtime: Pick<Runtime, 'temporal'>, logger: Logger) {
  const dispatcher = createDispatcher(settings, database, runtime, logger);
  const correlator = FormEventCorrelator.fromSettings(database, logger, settings);
  await dispatcher.start();
  await correlator.start();
  return {
    async stop() {
      await correlator.stop();
      await dispatcher.stop();
    },
  };
}

function createDispatcher(settings: Settings, database: Database, runtime: Pick<Runtime, 'temporal'>, logger: Logger) {
  return new OutboxDispatcher({
    database,
    logger: logger.child({ component: 'dispatcher' }),
    startWorkflow: temporalStarter(runtime.temporal, settings['temporal.task-queue']),
    signals: temporalSignaller(runtime.temporal, settings['temporal.task-queue']),
    capabilities: settings['dispatcher.capabilities'],
    pollMs: settings['dispatcher.poll-ms'],
    batchSize: settings['dispatcher.batch-size'],
    parallelBatches: settings['dispatcher.parallel-batches'],
    maxAttempts: settings['dispatcher.max-attempts'],
    backoffMs: settings['dispatcher.backoff-ms'],
  });
}

/**
 * The SDK's own worker metrics (task slots, schedule-to-start latency, activity failures), from
 * its Prometheus exporter on a loopback port, served inside this process's `/metrics`: one scrape
 * target per process. Prometheus naming: `_total` counters, units and seconds in the names.
 */
async function readSdkMetrics(port: number) {
  const r = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (!r.ok) throw new Error(`Temporal SDK metrics answered ${r.status}`);
  return r.text();
}

let runtimeInstalled: Promise<number | undefined> | undefined;

/**
 * Routes the SDK's own log lines into our JSON logger (warnings and worse only) and, with metrics
 * on, starts its exporter; once per process. Resolves to the exporter's loopback port.
 */
function installTemporalRuntime(logger: Logger, withMetrics: boolean) {
  runtimeInstalled ??= withMetrics ? freeLoopbackPort().then((port) => installRuntime(logger, port)) : Promise.resolve(installRuntime(logger, undefined));
  return runtimeInstalled;
}

function installRuntime(logger: Logger, metricsPort: number | undefined) {
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
    telemetryOptions: metricsPort
      ? {
          metrics: {
            prometheus: {
              bindAddress: `127.0.0.1:${metricsPort}`,
              countersTotalSuffix: true,
              unitSuffix: true,
              useSecondsForDurations: true,
            },
          },
        }
      : {},
  });
  return metricsPort;
}
