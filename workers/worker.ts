// `npm run start:worker`: a Temporal worker node (plus outbox dispatcher), given only URLs.
import { loadSettings } from './config';
import { createLogger } from './logger';
import { connectRuntime, endpointsFromSettings } from './runtime';
import { ensureSearchAttributes } from './search-attributes';
import { onShutdown } from './shutdown';
import { startWorkerProcess } from './worker-process';

const settings = loadSettings();
const logger = createLogger(settings, 'worker');
const endpoints = endpointsFromSettings(settings);
const runtime = await connectRuntime(settings, endpoints, logger);
// Idempotent: a fresh Temporal cluster gets TenantId, Capability and BusinessKey registered.
await ensureSearchAttributes(runtime.temporalConnection, settings['temporal.namespace']);
// SEALER: the lead wires integrations/seal's SealPdf here ({ sealPdf: createSealer(settings, logger) } or the like).
const worker = await startWorkerProcess(settings, runtime, endpoints.temporalAddress, logger, { sealPdf: undefined });
onShutdown(logger, async () => {
  await worker.stop();
  await runtime.close();
});
