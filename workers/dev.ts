// `npm start`: the whole platform on one machine. Each server is embedded unless its URL is set
// (DATABASE_URL, TEMPORAL_ADDRESS, S3_ENDPOINT); data persists under DATA_DIR (./.data). This
// process holds the servers; the API, the worker and the dispatcher run as supervised child
// processes (workers/supervisor.ts), each started again with backoff when it crashes.
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateWithLock } from '../db/migrate';
import { envName } from '../domain/settings';
import { ConfigError, loadSettings } from './config';
import { provideDevSecrets } from './dev-secrets';
import { getFreePort, isPortOpen, startEmbeddedPostgres, startSeaweed, startTemporalDevServer, stopAllServers } from './embedded/index';
import { startMailCatcher } from './embedded/mail-catcher';
import { acquireStartLock, releaseWhenListening } from './embedded/start-lock';
import { createLogger } from './logger';
import type { Endpoints } from './runtime';
import { onShutdown } from './shutdown';
import { Supervisor } from './supervisor';
import { devSessionSecret, startDevGateway } from '../web/dev/dev-gateway';

let settings;
try {
  await provideDevSecrets();
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

// 1. Servers, and the mail catcher, started under the machine's start lock (start-lock.ts): another
// stack starting at the same moment would otherwise find the same conventional ports free. The lock
// is held until the roles listen on the ports chosen for them below (step 4), for the same reason.
let temporalUi: string | undefined;
const startLock = await acquireStartLock({ log });
const [databaseUrl, temporalAddress, s3, mailCatcher] = await Promise.all([
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
  // A given mail.smtp-url always wins; otherwise mail goes to a local catcher with a page to read it.
  (async () =>
    settings['mail.smtp-url'] ? undefined : startMailCatcher({ smtpPort: await preferPort(1025), webPort: await preferPort(1080) }))(),
]);

// 2. Migrations, once, before any role starts (the API node repeats the check under the lock).
await migrateWithLock(databaseUrl);

// 3. URLs. A port of 0 is chosen here, so the API keeps it across restarts and it can be printed.
const port = settings.port === 0 ? await getFreePort() : settings.port;
const api = `http://localhost:${port}`;
// In header mode a development gateway holds PORT (the sign-in, then the browser's identity headers)
// and the API role listens behind it on a port of its own; in jwt mode your gateway signs the identity.
const devGateway = settings['auth.mode'] === 'header';
const apiPort = devGateway ? await getFreePort() : port;
// Each role is its own process with its own metrics listener: METRICS_PORT, +1, +2.
// A port already taken (another stack on this machine) is replaced by a free one, as for the servers.
const roleNames = ['api', 'worker', 'dispatcher'] as const;
const metricsPorts =
  settings['metrics.port'] === 0 ? [0, 0, 0] : await Promise.all(roleNames.map((_, i) => preferPort(settings['metrics.port'] + i)));
const metricsPort = (role: (typeof roleNames)[number]) => metricsPorts[roleNames.indexOf(role)]!;
const metricsLines = () =>
  settings['metrics.port'] === 0
    ? ['  Metrics          (off: METRICS_PORT=0)']
    : roleNames.map(
        (role, i) =>
          `${i === 0 ? '  Metrics          ' : '                   '}http://localhost:${metricsPort(role)}/metrics   (${role}${role === 'worker' ? ", with the Temporal SDK's metrics" : ''})`,
      );
process.stdout.write(
  [
    '',
    'Tenant capability platform is starting:',
    `  API              ${api}`,
    `  API docs         ${api}/docs   (OpenAPI: ${api}/openapi.json)`,
    `  Temporal Web UI  ${temporalUi ?? '(external Temporal: use its own UI)'}`,
    `  Readiness        ${api}/health/ready`,
    devGateway
      ? `  Sign in (dev)    ${api}/dev/sign-in   (development only: your browser's identity headers; curl with X-User-Id works as before)`
      : '  Sign in (dev)    (off: AUTH_MODE=jwt, the identity comes from your gateway\'s signed assertion)',
    `  Sent mail        ${mailCatcher ? `${mailCatcher.webUrl}   (local mail catcher)` : '(external SMTP server: mail.smtp-url)'}`,
    ...metricsLines(),
    'The API, the worker and the dispatcher are restarted when they crash. Press Ctrl-C to stop every part.',
    '',
  ].join('\n'),
);

// 4. Roles, each in its own supervised process, given the servers' URLs.
const entry = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const supervisor = new Supervisor({
  roles: [
    { name: 'api', entry: entry('./api.ts'), env: { [envName('metrics.port')]: String(metricsPort('api')) } },
    {
      name: 'worker',
      entry: entry('./worker.ts'),
      env: {
        [envName('dispatcher.enabled')]: 'false',
        [envName('metrics.port')]: String(metricsPort('worker')),
        // One machine, one worker: each start (a new commit is a new build) takes the new starts (docs/releases.md).
        [envName('temporal.promote-on-start')]: process.env[envName('temporal.promote-on-start')] ?? 'always',
      },
    },
    ...(settings['dispatcher.enabled']
      ? [{ name: 'dispatcher', entry: entry('./dispatcher-node.ts'), env: { [envName('metrics.port')]: String(metricsPort('dispatcher')) } }]
      : []),
  ],
  env: {
    ...process.env,
    [envName('database.url')]: databaseUrl,
    [envName('temporal.address')]: temporalAddress,
    [envName('s3.endpoint')]: s3.endpoint,
    [envName('s3.access-key-id')]: s3.accessKeyId,
    [envName('s3.secret-access-key')]: s3.secretAccessKey,
    [envName('port')]: String(apiPort),
    // The console links operators to this stack's Temporal Web UI and offers the development sign-out.
    ...(temporalUi ? { [envName('temporal.ui-url')]: process.env[envName('temporal.ui-url')] ?? temporalUi } : {}),
    ...(devGateway ? { [envName('console.dev-sign-in')]: 'true' } : {}),
    // Local receivers are plain http: `npm start` accepts them unless told otherwise (production: https only).
    [envName('webhooks.allow-http')]: process.env[envName('webhooks.allow-http')] ?? 'true',
    ...(mailCatcher ? { [envName('mail.smtp-url')]: mailCatcher.smtpUrl } : {}),
  },
  logger,
  backoffMs: settings['supervisor.restart-backoff-ms'],
  maxBackoffMs: settings['supervisor.restart-max-backoff-ms'],
});
// Bound before the roles start, so a taken PORT stops everything here rather than orphaning the servers.
const gateway = devGateway
  ? await startDevGateway(
      { secret: settings['internal.key'] ? devSessionSecret(settings['internal.key']) : randomBytes(32), upstream: `http://127.0.0.1:${apiPort}` },
      port,
    ).catch(async (err: unknown) => {
      logger.error({ err }, `the development gateway cannot listen on port ${port}`);
      await mailCatcher?.stop().catch(() => undefined);
      await stopAllServers();
      process.exit(1);
    })
  : undefined;
supervisor.start();
// In the background: the URLs are printed and the roles boot meanwhile.
void releaseWhenListening(startLock, [apiPort, ...metricsPorts]);

onShutdown(logger, async () => {
  // The gateway first, then the roles, then the servers they use; embedded servers must never be orphaned.
  await gateway?.close().catch((err) => logger.error({ err }, 'stopping the development gateway failed'));
  await supervisor.stop().catch((err) => logger.error({ err }, 'stopping the roles failed'));
  await mailCatcher?.stop().catch((err) => logger.error({ err }, 'mail catcher stop failed'));
  await stopAllServers();
});
