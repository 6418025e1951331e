// `npm run start:api`: an API node, given only URLs (DATABASE_URL, TEMPORAL_ADDRESS, S3_ENDPOINT).
import { migrateWithLock } from '../db/migrate';
import { ensureBucket } from '../integrations/docstore/bucket';
import { startApiNode } from './api-node';
import { loadSettings } from './config';
import { createLogger } from './logger';
import { connectRuntime, endpointsFromSettings } from './runtime';
import { onShutdown } from './shutdown';

const settings = loadSettings();
const logger = createLogger(settings, 'api');
const endpoints = endpointsFromSettings(settings);
await migrateWithLock(endpoints.databaseUrl);
const runtime = await connectRuntime(settings, endpoints, logger);
// Idempotent: creates the documents bucket with versioning and object lock when missing.
await ensureBucket(runtime.s3, settings['s3.bucket']);
const server = await startApiNode(settings, runtime, logger);
logger.info({ port: server.port, metrics: server.metrics?.url }, 'API listening');
onShutdown(logger, async () => {
  await server.stop();
  await runtime.close();
});
