// The outbox dispatcher (and the forms event correlator) alone, as `npm start` supervises it beside the worker; given only URLs.
import { loadSettings } from './config';
import { createLogger } from './logger';
import { startMetricsServer } from './metrics-server';
import { connectRuntime, endpointsFromSettings } from './runtime';
import { onShutdown } from './shutdown';
import { FormEventCorrelator } from './form-event-correlator';
import { createDispatcher } from './worker-process';

const settings = loadSettings();
const logger = createLogger(settings, 'dispatcher');
const runtime = await connectRuntime(settings, endpointsFromSettings(settings), logger);
const dispatcher = createDispatcher(settings, runtime.database, runtime, logger);
await dispatcher.start();
// The forms event rail's correlator runs wherever the dispatcher does: it only writes outbox rows.
const correlator = FormEventCorrelator.fromSettings(runtime.database, logger, settings);
await correlator.start();
const metrics = await startMetricsServer(settings, { database: runtime.database }, logger);
logger.info({ capabilities: settings['dispatcher.capabilities'] }, 'dispatcher started');
onShutdown(logger, async () => {
  await correlator.stop();
  await dispatcher.stop();
  await metrics?.close();
  await runtime.close();
});
