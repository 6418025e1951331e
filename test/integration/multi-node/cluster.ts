// Several platform nodes over the one PostgreSQL, Temporal and S3 of the test run, each a process
// of its own (node-child.ts), on a database of the test file's own. Helpers to call them over HTTP.
import type { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { envName } from '../../../domain/settings';
import { getFreePort } from '../../../workers/embedded/child-process';
import { ensureSearchAttributes } from '../../../workers/search-attributes';
import { createTestDatabase, type TestDatabase } from '../../support/db';
import { EMBED_KEY } from '../../support/intake';
import { servers } from '../../support/servers';

const CHILD = fileURLToPath(new URL('./node-child.ts', import.meta.url));
export const MASTER_KEY = randomBytes(32).toString('base64');

export type Role = 'api' | 'worker' | 'dispatcher';

export interface NodeProcess {
  role: Role;
  proc: ChildProcess;
  /** API nodes: their base URL and their /metrics. */
  base: string;
  metrics: string | undefined;
  /** Closes stdin (a clean stop) and waits for the exit. */
  stop(): Promise<void>;
  /** Ends it at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
}

export interface Cluster {
  db: TestDatabase;
  taskQueue: string;
  nodes: NodeProcess[];
  start(role: Role, settings?: Record<string, string>): Promise<NodeProcess>;
  close(): Promise<void>;
}

/** A database for this file and a way to start nodes on it (stopped by close). */
export async function createCluster(settings: Record<string, string> = {}): Promise<Cluster> {
  const db = await createTestDatabase();
  const { temporalAddress, s3 } = servers();
  const suffix = randomBytes(4).toString('hex');
  const taskQueue = `tq-multi-node-${suffix}`;
  const base: Record<string, string> = {
    'database.url': db.url,
    'database.pool-size': '10',
    'temporal.address': temporalAddress,
    'temporal.task-queue': taskQueue,
    'temporal.deployment-name': `multi-node-${suffix}`,
    'temporal.promote-on-start': 'always',
    's3.endpoint': s3.endpoint,
    's3.region': s3.region,
    's3.access-key-id': s3.accessKeyId,
    's3.secret-access-key': s3.secretAccessKey,
    'secrets.master-key': MASTER_KEY,
    'forms.embed-key': EMBED_KEY,
    'forms.submission-pdf': 'false',
    'dispatcher.enabled': 'false',
    'dispatcher.poll-ms': '500',
    'port': '0',
    'metrics.host': '127.0.0.1',
    'log.level': 'error',
    ...settings,
  };
  const nodes: NodeProcess[] = [];
  const cluster: Cluster = {
    db,
    taskQueue,
    nodes,
    async start(role, extra = {}) {
      const all = { ...base, 'metrics.port': String(await getFreePort()), ...extra };
      const env: Record<string, string | undefined> = { ...process.env };
      for (const [name, value] of Object.entries(all)) env[envName(name)] = value;
      // node itself (not the tsx wrapper), so SIGKILL hits the node and nothing of it survives.
      const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, role], { env, stdio: ['pipe', 'pipe', 'inherit'] });
      const ready = await new Promise<{ port?: number; metrics?: string }>((resolve, reject) => {
        createInterface({ input: proc.stdout! }).on('line', (line) => {
          if (line.startsWith('{"ready"')) resolve(JSON.parse(line));
        });
        proc.once('exit', (code) => reject(new Error(`${role} node exited (${code}) before it was ready`)));
      });
      const exited = once(proc, 'exit');
      const node: NodeProcess = {
        role,
        proc,
        base: `http://127.0.0.1:${ready.port ?? 0}`,
        metrics: ready.metrics,
        async stop() {
          if (proc.exitCode !== null || proc.signalCode !== null) return;
          proc.stdin!.end();
          await exited;
        },
        async kill() {
          if (proc.exitCode !== null || proc.signalCode !== null) return;
          proc.kill('SIGKILL');
          await exited;
        },
      };
      nodes.push(node);
      return node;
    },
    async close() {
      await Promise.all(nodes.map((n) => n.stop()));
      await db.drop();
    },
  };
  return cluster;
}

/**
 * A Temporal namespace of the file's own, with the platform's search attributes: its workers
 * create the platform schedules, which must not touch those of other test files.
 */
export async function createNamespace(connection: Connection) {
  const namespace = `multi-node-${randomBytes(4).toString('hex')}`;
  await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
  for (;;) {
    try {
      await connection.workflowService.describeNamespace({ namespace });
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  await ensureSearchAttributes(connection, namespace);
  return namespace;
}

export interface Who {
  user: string;
  tenant?: string;
}

/** One HTTP call to a node, identity in the gateway's headers; the answer's status and JSON. */
export async function call(node: NodeProcess, method: string, path: string, who: Who | null, body?: unknown) {
  const headers: Record<string, string> = {};
  if (who) headers['X-User-Id'] = who.user;
  if (who?.tenant) headers['X-Tenant-Id'] = who.tenant;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${node.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** One sample of a Prometheus series from a node's /metrics (0 when absent). */
export async function metric(node: NodeProcess, name: string, labels: Record<string, string> = {}) {
  const text = await (await fetch(node.metrics!)).text();
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const [series, value] = [line.slice(0, line.lastIndexOf(' ')), line.slice(line.lastIndexOf(' ') + 1)];
    if (series !== name && !series.startsWith(`${name}{`)) continue;
    if (want.every((w) => series.includes(w))) sum += Number(value);
  }
  return sum;
}
