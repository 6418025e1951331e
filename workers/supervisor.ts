import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';

/** One supervised role: an entry point run in its own process. */
export interface RoleSpec {
  name: string;
  /** Absolute path of the entry point (e.g. workers/api.ts). */
  entry: string;
  /** Added to the supervisor's environment for this role only. */
  env?: Record<string, string>;
}

export interface SupervisorOptions {
  roles: readonly RoleSpec[];
  /** The environment every role starts with (the URLs of the servers the parent runs). */
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** First restart delay; doubles per crash in a row. */
  backoffMs: number;
  /** Longest delay; a role that ran at least this long before crashing starts again at the first. */
  maxBackoffMs: number;
  /** How long a role may take to stop on SIGTERM before it is killed. */
  stopTimeoutMs?: number;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROLE_HOST = fileURLToPath(new URL('./supervised-role.ts', import.meta.url));

interface RoleState {
  spec: RoleSpec;
  child?: ChildProcess;
  startedAt: number;
  crashesInRow: number;
  restartTimer?: NodeJS.Timeout;
  exited?: Promise<void>;
}

/**
 * Runs each role as a child process and starts it again, with backoff, whenever it exits while
 * the supervisor is running, so a crash of the API, the worker or the dispatcher never takes the
 * others or the servers the parent holds with it. Children run in their own process group: a
 * terminal's Ctrl-C reaches the parent only, which stops them first (`stop`).
 */
export class Supervisor {
  private readonly states: RoleState[];
  private stopping = false;

  constructor(private readonly o: SupervisorOptions) {
    this.states = o.roles.map((spec) => ({ spec, startedAt: 0, crashesInRow: 0 }));
  }

  start() {
    for (const state of this.states) this.launch(state);
  }

  /** The process id of a role's current child, if it runs. */
  pid(role: string): number | undefined {
    return this.states.find((s) => s.spec.name === role)?.child?.pid;
  }

  /** SIGTERM to every role, SIGKILL to any still running after the stop timeout; no restarts. */
  async stop() {
    this.stopping = true;
    const timeoutMs = this.o.stopTimeoutMs ?? 20_000;
    await Promise.all(
      this.states.map(async (state) => {
        clearTimeout(state.restartTimer);
        const { child, exited } = state;
        if (!child || !exited) return;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  private launch(state: RoleState) {
    const { spec } = state;
    const log = this.o.logger.child({ role: spec.name });
    // tsx runs the TypeScript entry points, as `npm run start:api` does.
    const child = fork(ROLE_HOST, [spec.entry], {
      cwd: ROOT,
      env: { ...this.o.env, ...spec.env },
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
      detached: true,
    });
    state.child = child;
    state.startedAt = Date.now();
    log.info({ childPid: child.pid }, 'role started');
    state.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        resolve();
        if (this.stopping) return;
        const ranMs = Date.now() - state.startedAt;
        state.crashesInRow = ranMs >= this.o.maxBackoffMs ? 1 : state.crashesInRow + 1;
        const delay = Math.min(this.o.backoffMs * 2 ** (state.crashesInRow - 1), this.o.maxBackoffMs);
        log.error({ code, signal, ranMs, restartInMs: delay }, 'role exited; restarting');
        state.restartTimer = setTimeout(() => {
          if (!this.stopping) this.launch(state);
        }, delay);
      });
    });
  }
}
