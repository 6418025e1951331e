import { S3Client } from '@aws-sdk/client-s3';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { migrateDatabase } from '../../db/client';
import { ensureBucket } from '../../integrations/docstore/bucket';
import { loadSettings } from '../../workers/config';
import { getFreePort } from '../../workers/embedded/child-process';
import { startMailCatcher } from '../../workers/embedded/mail-catcher';
import { startEmbeddedPostgres } from '../../workers/embedded/postgres';
import { startSeaweed } from '../../workers/embedded/seaweed';
import { startTemporalDevServer } from '../../workers/embedded/temporal';
import { TEMPLATE_DB, type S3Target } from './servers';
import { SUITE_LOG_DIR } from './suite-log';

/**
 * Starts PostgreSQL, the Temporal dev server and S3 once per test run, unless the environment
 * names existing ones (DATABASE_URL, TEMPORAL_ADDRESS, S3_ENDPOINT), and migrates a template
 * database that every test file clones. A real SMTP catcher always runs: tests read the messages
 * it received (test/support/mail.ts).
 */
export default async function setup(project: TestProject) {
  const settings = loadSettings();
  const root = await mkdtemp(join(tmpdir(), 'platform-test-'));
  // The suite log holds this run only: test/log-scan reads it after the integration tests.
  await rm(SUITE_LOG_DIR, { recursive: true, force: true });
  const stops: Array<() => Promise<void>> = [];
  const log = (m: string) => process.stderr.write(`[test-servers] ${m}\n`);

  const started = await Promise.allSettled([
    (async () => {
      if (settings['database.url']) return settings['database.url'];
      const pg = await startEmbeddedPostgres({
        dataDir: join(root, 'pg'),
        port: await getFreePort(),
        settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' },
        log,
      });
      stops.push(pg.stop);
      return pg.url;
    })(),
    (async () => {
      if (settings['temporal.address']) return settings['temporal.address'];
      // History in memory: a test run never outlives its server, and syncing each write to disk only slows it.
      const t = await startTemporalDevServer({
        dbFile: join(root, 'temporal.db'),
        inMemory: true,
        port: await getFreePort(),
        uiPort: await getFreePort(),
        log,
      });
      stops.push(t.stop);
      return t.address;
    })(),
    (async (): Promise<S3Target> => {
      if (settings['s3.endpoint']) {
        return {
          endpoint: settings['s3.endpoint'],
          region: settings['s3.region'],
          accessKeyId: settings['s3.access-key-id'] ?? '',
          secretAccessKey: settings['s3.secret-access-key'] ?? '',
        };
      }
      const s = await startSeaweed({ dataDir: join(root, 's3'), s3Port: await getFreePort(), log });
      stops.push(s.stop);
      return { endpoint: s.endpoint, region: s.region, accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey };
    })(),
  ]);
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    // Stop what did start: a PostgreSQL left running keeps vitest's process from exiting.
    for (const stop of stops.reverse()) await stop().catch((e) => log(`stop failed: ${String(e)}`));
    await rm(root, { recursive: true, force: true });
    throw failed.reason;
  }
  const [pgUrl, temporalAddress, s3] = started.map((r) => (r as PromiseFulfilledResult<unknown>).value) as [
    string,
    string,
    S3Target,
  ];

  const mail = await startMailCatcher({ smtpPort: 0, webPort: 0 });
  stops.push(mail.stop);

  const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${TEMPLATE_DB} with (force)`);
  await admin.unsafe(`create database ${TEMPLATE_DB}`);
  await admin.end();
  const templateUrl = new URL(pgUrl);
  templateUrl.pathname = `/${TEMPLATE_DB}`;
  await migrateDatabase(templateUrl.toString());

  const s3Client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  await ensureBucket(s3Client, settings['s3.bucket']);
  s3Client.destroy();

  project.provide('pgUrl', pgUrl);
  project.provide('temporalAddress', temporalAddress);
  project.provide('s3', s3);
  project.provide('mail', { smtpUrl: mail.smtpUrl, webUrl: mail.webUrl });

  return async () => {
    for (const stop of stops.reverse()) await stop().catch((e) => log(`stop failed: ${String(e)}`));
    // Temporal's own log (warnings and up) outlives the run's folder: a test that timed out
    // waiting on the server is read against it.
    await mkdir(SUITE_LOG_DIR, { recursive: true });
    await copyFile(join(root, 'temporal.log'), join(SUITE_LOG_DIR, 'temporal-server.log')).catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  };
}
