// `npm run start:api`: an API node, given only URLs (DATABASE_URL, TEMPORAL_ADDRESS, S3_ENDPOINT).
import { startServer } from '../api/server';
import { migrateWithLock } from '../db/migrate';
import { createListeningAccessCache } from './access-cache-listener';
import { bootstrapAccess } from './bootstrap';
import { loadSettings } from './config';
import { ensureBucket } from './embedded/seaweed';
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
await bootstrapAccess(runtime.database.db, settings);
const access = await createListeningAccessCache(runtime.database.sql, settings['access.cache-ttl-ms'], logger);
const server = await startServer(
  {
    db: runtime.database.db,
    settings,
    logger,
    temporal: runtime.temporal,
    s3: runtime.s3,
    readiness: runtime.readiness,
    accessCache: access.cache,
  },
  settings.port,
);
logger.info({ port: server.port }, 'API listening');
onShutdown(logger, async () => {
  await server.close();
  await access.stop();
  await runtime.close();
});
