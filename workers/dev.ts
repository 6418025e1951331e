// `npm start`: the whole platform on one machine. Each part is embedded unless its URL is set
// (DATABASE_URL, TEMPORAL_ADDRESS, S3_ENDPOINT); data persists under DATA_DIR (./.data).
import { join, resolve } from 'node:path';
import { migrateWithLock } from '../db/migrate';
import { ensureBucket } from '../integrations/docstore/bucket';
import { startApiNode } from './api-node';
import { ConfigError, loadSettings } from './config';
import { getFreePort, isPortOpen, startEmbeddedPostgres, startSeaweed, startTemporalDevServer, stopAllServers } from './embedded/index';
import { startMailCatcher } from './embedded/mail-catcher';
import { createLogger } from './logger';
import { connectRuntime, type Endpoints } from './runtime';
import { ensureSearchAttributes } from './search-attributes';
import { onShutdown } from './shutdown';
import { startWorkerProcess } from './worker-process';

let settings;
try {
  settings = loadSettings();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  throw err;
}
const logger = createLogger(settings, 'platform');
const dataDir = resolve(settings['data-dir']);
const log = (msg: string) => logger.info(msg);

/** The conventional port when free (so CLIs find it), else any free one. */
const preferPort = async (port: number) => ((await isPortOpen(port)) ? getFreePort() : port);

let temporalUi: string | undefined;
const [databaseUrl, temporalAddress, s3] = await Promise.all([
  (async () => {
    if (settings['database.url']) return settings['database.url'];
    const pg = await startEmbeddedPostgres({ dataDir: join(dataDir, 'postgres'), port: await preferPort(5432), log });
    return pg.url;
  })(),
  (async () => {
    if (settings['temporal.address']) return settings['temporal.address'];
    const t = await startTemporalDevServer({
      dbFile: join(dataDir, 'temporal', 'temporal.db'),
      port: await preferPort(7233),
      uiPort: settings['temporal.ui-port'],
      namespace: settings['temporal.namespace'],
      log,
    });
    temporalUi = t.uiUrl;
    return t.address;
  })(),
  (async (): Promise<Endpoints['s3']> => {
    if (settings['s3.endpoint']) {
      return {
        endpoint: settings['s3.endpoint'],
        accessKeyId: settings['s3.access-key-id'] ?? '',
        secretAccessKey: settings['s3.secret-access-key'] ?? '',
      };
    }
    const s = await startSeaweed({ dataDir: join(dataDir, 's3'), s3Port: await preferPort(8333), log });
    return { endpoint: s.endpoint, accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey };
  })(),
]);

// A given mail.smtp-url always wins; otherwise mail goes to a local catcher with a page to read it.
const mailCatcher = settings['mail.smtp-url'] ? undefined : await startMailCatcher({ smtpPort: await preferPort(1025), webPort: await preferPort(1080) });
if (mailCatcher) settings = { ...settings, 'mail.smtp-url': mailCatcher.smtpUrl };

await migrateWithLock(databaseUrl);
const runtime = await connectRuntime(settings, { databaseUrl, temporalAddress, s3 }, logger);
// On the runtime's own connections; the embedded Temporal registers its search attributes itself.
if (settings['temporal.address']) await ensureSearchAttributes(runtime.temporalConnection, settings['temporal.namespace']);
await ensureBucket(runtime.s3, settings['s3.bucket']);
const server = await startApiNode(settings, runtime, logger);
const worker = await startWorkerProcess(settings, runtime, temporalAddress, logger);

const api = `http://localhost:${server.port}`;
process.stdout.write(
  [
    '',
    'Tenant capability platform is up:',
    `  API              ${api}`,
    `  API docs         ${api}/docs   (OpenAPI: ${api}/openapi.json)`,
    `  Temporal Web UI  ${temporalUi ?? '(external Temporal: use its own UI)'}`,
    `  Readiness        ${api}/health/ready`,
    `  Sent mail        ${mailCatcher ? `${mailCatcher.webUrl}   (local mail catcher)` : '(external SMTP server: mail.smtp-url)'}`,
    'Press Ctrl-C to stop every part.',
    '',
  ].join('\n'),
);

onShutdown(logger, async () => {
  // Every step runs even if an earlier one fails: embedded servers must never be orphaned.
  for (const step of [() => server.stop(), () => worker.stop(), () => runtime.close()]) {
    await step().catch((err) => logger.error({ err }, 'shutdown step failed'));
  }
  await mailCatcher?.stop().catch((err) => logger.error({ err }, 'mail catcher stop failed'));
  await stopAllServers();
});
