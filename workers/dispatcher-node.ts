// The outbox dispatcher (and the forms event correlator) alone, as `npm start` supervises it beside the worker; given only URLs.
import { loadSettings } from './config';
import { createLogger } from './logger';
import { startMetricsServer } from './metrics-server';
import { connectRuntime, endpointsFromSettings } from './runtime';
import { onShutdown } from './shutdown';
import { startOutboxDelivery } from './worker-process';

const settings = loadSettings();
const logger = createLogger(settings, 'dispatcher');
const runtime = await connectRuntime(settings, endpointsFromSettings(settings), logger);
const delivery = await startOutboxDelivery(settings, runtime.database, runtime, logger);
const metrics = await startMetricsServer(settings, { database: runtime.database }, logger);
logger.info({ capabilities: settings['dispatcher.capabilities'] }, 'dispatcher started');
onShutdown(logger, async () => {
  await delivery.stop();
  await metrics?.close();
  await runtime.close();
});
