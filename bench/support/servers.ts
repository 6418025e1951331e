import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { migrateDatabase } from '../../db/client';
import { loadSettings } from '../../workers/config';
import { getFreePort } from '../../workers/embedded/child-process';
import { startEmbeddedPostgres } from '../../workers/embedded/postgres';
import { startTemporalDevServer } from '../../workers/embedded/temporal';

export interface BenchDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * A migrated database for one benchmark: a fresh database on DATABASE_URL's server when set,
 * otherwise on an embedded PostgreSQL in a temp dir that is removed afterwards.
 */
/** Creates database `name` on the server at `serverUrl` and migrates it; its URL. */
export async function createMigratedDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrateDatabase(url.toString());
  return url.toString();
}

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
  const url = await createMigratedDatabase(serverUrl, name);
  return {
    url,
    async stop() {
      await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end();
      await stopServer();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface BenchTemporal {
  address: string;
  stop(): Promise<void>;
}

/**
 * TEMPORAL_ADDRESS's server when set, otherwise a Temporal dev server with its history in memory
 * (its log in a temp dir removed afterwards). In memory because a benchmark measures the platform:
 * the dev server's SQLite file syncs every write to this machine's shared disk, and measured that
 * way it held one dispatcher to a quarter of the starts per second (bench/outbox-starts).
 */
export async function startBenchTemporal(): Promise<BenchTemporal> {
  const given = loadSettings()['temporal.address'];
  if (given) return { address: given, stop: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), 'platform-bench-temporal-'));
  const t = await startTemporalDevServer({ dbFile: join(dir, 'temporal.db'), inMemory: true, port: await getFreePort(), uiPort: await getFreePort() });
  return {
    address: t.address,
    async stop() {
      await t.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
