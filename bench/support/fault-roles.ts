// The faults bench's platform roles, each a process of its own built by the production
// composition (test/integration/multi-node/node-child.ts): an API node, a Temporal worker, an
// outbox dispatcher. Their logs go to one file per start in the bench's temp dir. Nothing here
// restarts a role on its own: the bench kills and restarts the worker and the dispatcher once each,
// as a supervisor would; every other role must ride out the faults as it is.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { envName } from '../../domain/settings';
import { getFreePort } from '../../workers/embedded/child-process';

const NODE_CHILD = fileURLToPath(new URL('../../test/integration/multi-node/node-child.ts', import.meta.url));

export type Role = 'api' | 'worker' | 'dispatcher';

export interface RoleProcess {
  role: Role;
  proc: ChildProcess;
  /** API: base URL and /metrics URL. */
  base: string;
  metrics: string | undefined;
  logFile: string;
  /** SIGKILL, as a crash would; resolves once it has exited. */
  kill(): Promise<void>;
  /** Closes stdin (a clean stop), SIGKILL past `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export interface RoleSettings {
  databaseUrl: string;
  temporalAddress: string;
  embedKey: string;
  logDir: string;
  readyTimeoutMs: number;
}

let starts = 0;

/** The settings every role shares: the bench's servers, forms without PDFs, public limits raised, no S3 traffic. */
function sharedSettings(s: RoleSettings, closedPort: number): Record<string, string> {
  return {
    'database.url': s.databaseUrl,
    'database.pool-size': '10',
    'temporal.address': s.temporalAddress,
    'temporal.task-queue': 'faults',
    'temporal.deployment-name': 'faults',
    'temporal.promote-on-start': 'always',
    // The load touches no object storage; a port nothing listens on keeps it out of the way.
    's3.endpoint': `http://127.0.0.1:${closedPort}`,
    's3.access-key-id': 'none',
    's3.secret-access-key': 'none',
    'secrets.master-key': randomBytes(32).toString('base64'),
    'forms.embed-key': s.embedKey,
    'forms.submission-pdf': 'false',
    'forms.rate-limit.per-ip-per-minute': '1000000',
    'forms.rate-limit.per-token-per-minute': '1000000',
    'dispatcher.enabled': 'false',
    port: '0',
    'metrics.host': '127.0.0.1',
    'metrics.port': '0',
    'log.level': 'warn',
  };
}

/** Starts roles on the bench's servers; each start waits for the role's ready line, bounded. */
export async function roleStarter(s: RoleSettings) {
  const shared = sharedSettings(s, await getFreePort());
  return async function start(role: Role): Promise<RoleProcess> {
    const settings = { ...shared, ...(role === 'api' ? { 'metrics.port': String(await getFreePort()) } : {}) };
    const env: Record<string, string | undefined> = { ...process.env };
    for (const [name, value] of Object.entries(settings)) env[envName(name)] = value;
    const logFile = join(s.logDir, `${role}-${++starts}.log`);
    const fd = openSync(logFile, 'a');
    // node itself (not the tsx wrapper), so SIGKILL ends the role and nothing of it survives.
    const proc = spawn(process.execPath, ['--import', 'tsx', NODE_CHILD, role], { env, stdio: ['pipe', 'pipe', fd] });
    closeSync(fd);
    const exited = once(proc, 'exit');
    let timer: NodeJS.Timeout | undefined;
    try {
      const ready = await Promise.race([
        new Promise<{ port?: number; metrics?: string }>((resolve) =>
          createInterface({ input: proc.stdout! }).on('line', (line) => line.startsWith('{"ready"') && resolve(JSON.parse(line))),
        ),
        exited.then(() => Promise.reject(new Error(`${role} exited before it was ready; see ${logFile}`))),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${role} not ready within ${s.readyTimeoutMs} ms; see ${logFile}`)), s.readyTimeoutMs))),
      ]);
      const gone = () => proc.exitCode !== null || proc.signalCode !== null;
      return {
        role,
        proc,
        base: `http://127.0.0.1:${ready.port ?? 0}`,
        metrics: ready.metrics,
        logFile,
        async kill() {
          if (gone()) return;
          proc.kill('SIGKILL');
          await exited;
        },
        async stop(graceMs = 30_000) {
          if (gone()) return;
          proc.stdin!.end();
          const killer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
          await exited;
          clearTimeout(killer);
        },
      };
    } catch (err) {
      proc.kill('SIGKILL');
      throw err;
    } finally {
      clearTimeout(timer);
    }
  };
}
