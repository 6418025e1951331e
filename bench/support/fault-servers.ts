// The faults bench's PostgreSQL and Temporal: embedded, in a temp dir, each restartable on its
// own port and data. A restart is the real thing: PostgreSQL stopped (fast shutdown) and started
// again on the same data dir; the Temporal dev server stopped and started again on the same SQLite
// file (`--db-filename`, not in memory), so its histories, task queues and deployments survive.
// DATABASE_URL and TEMPORAL_ADDRESS are ignored here: a server the bench did not start, it cannot
// restart.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort } from '../../workers/embedded/child-process';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../workers/embedded/postgres';
import { startTemporalDevServer, type TemporalDevServer } from '../../workers/embedded/temporal';
import { createMigratedDatabase } from './servers';

/** When the server was told to stop, when it had exited, and when it answered again (epoch ms). */
export interface Outage {
  stoppedAt: number;
  downAt: number;
  upAt: number;
}

export interface RestartableServer {
  /** A URL (PostgreSQL) or host:port (Temporal) that stays the same across restarts. */
  address: string;
  /**
   * Stops the server, keeps it down `downMs` after it exited (running `whileDown` meanwhile, its
   * answer kept), starts it again on the same port and data.
   */
  restart<T>(downMs: number, whileDown?: () => Promise<T>): Promise<Outage & { whileDown: T | undefined }>;
  stop(): Promise<void>;
}

export interface FaultServers {
  dir: string;
  postgres: RestartableServer;
  temporal: RestartableServer;
  /** Stops both; `keepDir` leaves the data and the role logs for a look at what went wrong. */
  stop(options?: { keepDir?: boolean }): Promise<void>;
}

async function restartable<S extends { stop(): Promise<void> }>(start: () => Promise<S>, address: (s: S) => string): Promise<RestartableServer> {
  let server = await start();
  return {
    address: address(server),
    async restart<T>(downMs: number, whileDown?: () => Promise<T>) {
      const stoppedAt = Date.now();
      await server.stop();
      const downAt = Date.now();
      const [seen] = await Promise.all([whileDown?.(), new Promise((r) => setTimeout(r, downMs))]);
      server = await start();
      return { stoppedAt, downAt, upAt: Date.now(), whileDown: seen };
    },
    stop: () => server.stop(),
  };
}

/** A migrated database `platform` on an embedded PostgreSQL, and a Temporal dev server on a SQLite file. */
export async function startFaultServers(log?: (msg: string) => void): Promise<FaultServers> {
  const dir = await mkdtemp(join(tmpdir(), 'platform-faults-'));
  const pgPort = await getFreePort();
  // fsync off: throwaway data, and a fast shutdown still writes everything out before the restart.
  const pg = await restartable<EmbeddedPostgres>(
    () => startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: pgPort, settings: { fsync: 'off' }, log }),
    (s) => s.url,
  );
  const url = await createMigratedDatabase(pg.address, 'platform');

  const [port, uiPort] = [await getFreePort(), await getFreePort()];
  const temporal = await restartable<TemporalDevServer>(
    // Its SQLite file without an fsync per write: a stopped process leaves everything written (only
    // a power cut would lose the tail), and with one fsync per write this shared machine's disk held
    // the server to a few workflow steps a second, the load's backlog growing before any fault.
    () =>
      startTemporalDevServer({
        dbFile: join(dir, 'temporal', 'temporal.db'),
        sqlitePragmas: ['journal_mode=WAL', 'synchronous=OFF'],
        port,
        uiPort,
        log,
        startTimeoutMs: 180_000,
      }),
    (s) => s.address,
  );
  return {
    dir,
    postgres: { ...pg, address: url },
    temporal,
    async stop(options = {}) {
      await Promise.allSettled([temporal.stop(), pg.stop()]);
      if (!options.keepDir) await rm(dir, { recursive: true, force: true });
    },
  };
}
