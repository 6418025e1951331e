import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { migrateDatabase } from '../../db/client';
import { loadSettings } from '../../workers/config';
import { getFreePort } from '../../workers/embedded/child-process';
import { startEmbeddedPostgres } from '../../workers/embedded/postgres';

export interface BenchDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * A migrated database for one benchmark: a fresh database on DATABASE_URL's server when set,
 * otherwise on an embedded PostgreSQL in a temp dir that is removed afterwards.
 */
export async function startBenchDatabase(): Promise<BenchDatabase> {
  const settings = loadSettings();
  let serverUrl = settings['database.url'];
  let stopServer = async () => {};
  let dir: string | undefined;
  if (!serverUrl) {
    dir = await mkdtemp(join(tmpdir(), 'platform-bench-'));
    const pg = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await getFreePort() });
    serverUrl = pg.url;
    stopServer = pg.stop;
  }
  const name = `bench_${Date.now().toString(36)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrateDatabase(url.toString());
  return {
    url: url.toString(),
    async stop() {
      await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end();
      await stopServer();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}
