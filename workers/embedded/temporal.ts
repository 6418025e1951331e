// Temporal for development and tests: the CLI's `server start-dev` (SQLite
// file, persistent between runs) and the Java time-skipping test server.
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import { spawnServer, waitForPort, waitUntilReady } from './child-process.js';
import { ensureTool } from './tools.js';
import { SEARCH_ATTRIBUTE_NAMES } from '../../workflows/search-attributes';

export interface TemporalDevServerOptions {
  /** SQLite file; its directory also receives `temporal.log`. */
  dbFile: string;
  /** Keep the history in memory instead of `dbFile` (which then only places the log): no fsync per write. */
  inMemory?: boolean;
  /** SQLite pragmas for `dbFile` (`name=value`), e.g. `synchronous=OFF` where only a process restart must keep the history, not a power cut. */
  sqlitePragmas?: string[];
  port: number;
  uiPort: number;
  namespace?: string;
  logFile?: string;
  startTimeoutMs?: number;
  log?: (msg: string) => void;
}

export interface TemporalDevServer {
  /** host:port for Connection.connect / NativeConnection.connect. */
  address: string;
  uiUrl: string;
  namespace: string;
  stop(): Promise<void>;
}

export async function startTemporalDevServer(options: TemporalDevServerOptions): Promise<TemporalDevServer> {
  const { port, uiPort, log } = options;
  const namespace = options.namespace ?? 'default';
  const dbFile = resolve(options.dbFile);
  await mkdir(dirname(dbFile), { recursive: true });
  const temporal = await ensureTool('temporal', { log });

  const args = [
    'server', 'start-dev',
    ...(options.inMemory ? [] : ['--db-filename', dbFile, ...(options.sqlitePragmas ?? []).flatMap((p) => ['--sqlite-pragma', p])]),
    '--ip', '127.0.0.1',
    '--port', String(port),
    '--ui-port', String(uiPort),
    '--log-level', 'warn',
    '--ui-disable-news-fetch',
    ...SEARCH_ATTRIBUTE_NAMES.flatMap((name) => ['--search-attribute', `${name}=Keyword`]),
    // "default" always exists; asking for it again is refused.
    ...(namespace === 'default' ? [] : ['--namespace', namespace]),
  ];
  const child = spawnServer({
    name: 'temporal',
    command: temporal,
    args,
    logFile: options.logFile ?? resolve(dirname(dbFile), 'temporal.log'),
    stopGraceMs: 10_000,
    log,
  });

  const address = `127.0.0.1:${port}`;
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  try {
    await waitForPort(child, port, { timeoutMs });
    // The frontend accepts connections before the namespace is registered.
    let connection: Connection | undefined;
    try {
      await waitUntilReady(
        child,
        async () => {
          connection ??= await Connection.connect({ address, connectTimeout: 5_000 });
          await connection.workflowService.describeNamespace({ namespace });
          return true;
        },
        { what: `namespace "${namespace}" usable`, timeoutMs },
      );
    } finally {
      await connection?.close();
    }
  } catch (err) {
    await child.stop();
    throw err;
  }
  const uiUrl = `http://127.0.0.1:${uiPort}`;
  log?.(`temporal: ready at ${address}, UI ${uiUrl}`);
  return { address, uiUrl, namespace, stop: () => child.stop() };
}

/**
 * Path of the pinned time-skipping test server, for
 * TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } })
 * (the SDK's default would download it from the internet, which we cannot reach).
 */
export function timeSkippingServerPath(log?: (msg: string) => void): Promise<string> {
  return ensureTool('temporal-test-server', { log });
}
