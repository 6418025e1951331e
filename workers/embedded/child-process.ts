// Spawning, readiness and teardown shared by the embedded servers.
//
// Children run in their own process group (detached) so a terminal Ctrl-C
// reaches only the parent, which can then stop things in order (a worker may
// still be draining against Temporal). The price is that the parent must kill
// them itself: a registry does that on exit/SIGINT/SIGTERM, and where
// util-linux `setpriv` exists the kernel's parent-death signal covers even a
// SIGKILLed parent.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, fstatSync, writeSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { constants as osConstants } from 'node:os';
import { dirname } from 'node:path';

export interface ServerChild {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves when the process has exited (immediately if it already has). */
  readonly exited: Promise<void>;
  hasExited(): boolean;
  /** Graceful signal, then SIGKILL to the whole group after the grace period. */
  stop(): Promise<void>;
  logTail(lines?: number): string;
}

export interface SpawnServerOptions {
  name: string;
  command: string;
  args: string[];
  logFile: string;
  cwd?: string;
  /** Run as another user (postgres refuses root). */
  uid?: number;
  gid?: number;
  /** What the server treats as "shut down cleanly"; postgres wants SIGINT. */
  stopSignal?: NodeJS.Signals;
  stopGraceMs?: number;
  log?: (msg: string) => void;
}

const live = new Set<ManagedChild>();
const PDEATHSIG_WRAPPER = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

export function spawnServer(options: SpawnServerOptions): ServerChild {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const fd = openSync(options.logFile, 'a');
  const stopSignal = options.stopSignal ?? 'SIGTERM';
  writeSync(fd, `\n=== ${new Date().toISOString()} ${options.command} ${options.args.join(' ')}\n`);
  const [command, args] = PDEATHSIG_WRAPPER
    ? [PDEATHSIG_WRAPPER, ['--pdeathsig', stopSignal, '--', options.command, ...options.args]]
    : [options.command, options.args];
  let child: ChildProcess;
  try {
    child = spawn(command, args, {
      cwd: options.cwd,
      uid: options.uid,
      gid: options.gid,
      detached: true,
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
  if (child.pid === undefined) {
    // spawn reports ENOENT/EACCES through a later 'error' event; surface it now instead.
    child.once('error', () => undefined);
    throw new Error(`${options.name}: could not start ${options.command}`);
  }
  const managed = new ManagedChild(options.name, child, options.logFile, stopSignal, options.stopGraceMs ?? 10_000);
  options.log?.(`${options.name}: started pid ${child.pid}, log ${options.logFile}`);
  return managed;
}

class ManagedChild implements ServerChild {
  readonly pid: number;
  readonly exited: Promise<void>;
  private done = false;
  private stopping: Promise<void> | undefined;

  constructor(
    readonly name: string,
    child: ChildProcess,
    readonly logFile: string,
    readonly stopSignal: NodeJS.Signals,
    private readonly graceMs: number,
  ) {
    this.pid = child.pid!;
    this.exited = new Promise((resolvePromise) => {
      child.once('exit', () => {
        this.done = true;
        live.delete(this);
        if (live.size === 0) uninstallHooks();
        resolvePromise();
      });
    });
    child.on('error', () => undefined); // reported through 'exit' and the log
    live.add(this);
    installHooks();
  }

  hasExited(): boolean {
    return this.done;
  }

  stop(): Promise<void> {
    this.stopping ??= this.stopNow();
    return this.stopping;
  }

  private async stopNow(): Promise<void> {
    if (this.done) return;
    this.signal(this.stopSignal, false);
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), this.graceMs)));
    const outcome = await Promise.race([this.exited, graceOver]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      this.signal('SIGKILL', true);
      await this.exited;
    }
  }

  /** Group-wide for SIGKILL so helpers the server forked die too. */
  signal(signal: NodeJS.Signals, group: boolean): void {
    if (this.done) return;
    try {
      process.kill(group ? -this.pid : this.pid, signal);
    } catch {
      // Already gone.
    }
  }

  logTail(lines = 40): string {
    return readLogTail(this.logFile, lines);
  }
}

export function readLogTail(file: string, lines = 40): string {
  try {
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, 16_384);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      return buffer.toString('utf8').split('\n').slice(-lines).join('\n');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '(no log)';
  }
}

// --- parent-exit hooks -------------------------------------------------------

let hooksInstalled = false;
let signalCount = 0;

function onExit(): void {
  // Only synchronous work is possible here: ask each child to shut down; they
  // finish on their own after we are gone.
  for (const child of live) child.signal(child.stopSignal, false);
}

function onSignal(signal: NodeJS.Signals): void {
  // If the application handles this signal itself it owns shutdown order and
  // will call stop(); the exit hook remains the backstop.
  if (process.listenerCount(signal) > 1) return;
  signalCount += 1;
  if (signalCount > 1) {
    for (const child of live) child.signal('SIGKILL', true);
    process.exit(128 + (osConstants.signals[signal] ?? 0));
  }
  void Promise.allSettled([...live].map((c) => c.stop())).finally(() => {
    uninstallHooks();
    // Re-raise so the process ends the way an unhandled signal would.
    process.kill(process.pid, signal);
  });
}

const onSigint = () => onSignal('SIGINT');
const onSigterm = () => onSignal('SIGTERM');
const onSighup = () => onSignal('SIGHUP');

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  signalCount = 0;
  process.on('exit', onExit);
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  process.on('SIGHUP', onSighup);
}

function uninstallHooks(): void {
  if (!hooksInstalled) return;
  hooksInstalled = false;
  process.off('exit', onExit);
  process.off('SIGINT', onSigint);
  process.off('SIGTERM', onSigterm);
  process.off('SIGHUP', onSighup);
}

/** Stops every server this process started, e.g. from an application's own signal handler. */
export async function stopAllServers(): Promise<void> {
  await Promise.allSettled([...live].map((c) => c.stop()));
}

// --- readiness ---------------------------------------------------------------

/** A readiness check throws this to give up at once instead of retrying. */
export class FatalReadinessError extends Error {}

export interface WaitOptions {
  /** What is being awaited, for the error message. */
  what: string;
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Polls `check` until it resolves truthy. Fails early if the child dies, and
 * every failure carries the log tail because that is where the reason is.
 */
export async function waitUntilReady(
  child: ServerChild,
  check: () => Promise<boolean>,
  { what, timeoutMs = 60_000, intervalMs = 150 }: WaitOptions,
): Promise<void> {
  const started = Date.now();
  let lastError: unknown;
  for (;;) {
    if (child.hasExited()) {
      throw readinessError(child, `exited before ${what}`, lastError);
    }
    try {
      if (await check()) return;
    } catch (err) {
      if (err instanceof FatalReadinessError) throw readinessError(child, err.message, undefined);
      lastError = err;
    }
    if (Date.now() - started > timeoutMs) {
      throw readinessError(child, `${what} did not happen within ${timeoutMs} ms`, lastError);
    }
    await Promise.race([new Promise((r) => setTimeout(r, intervalMs)), child.exited]);
  }
}

function readinessError(child: ServerChild, reason: string, lastError: unknown): Error {
  const cause = lastError instanceof Error ? `\nlast check error: ${lastError.message}` : '';
  return new Error(
    `${child.name} (pid ${child.pid}): ${reason}${cause}\n--- tail of ${child.logFile} ---\n${child.logTail()}`,
  );
}

export function isPortOpen(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = createConnection({ port, host });
    const finish = (open: boolean) => {
      socket.destroy();
      resolvePromise(open);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

export function waitForPort(child: ServerChild, port: number, options: Partial<WaitOptions> & { host?: string } = {}) {
  const host = options.host ?? '127.0.0.1';
  return waitUntilReady(child, () => isPortOpen(port, host), { what: `${host}:${port} accepting`, ...options });
}

/** Any HTTP answer counts unless `accept` says otherwise: a 403 still proves the server is up. */
export function waitForHttp(
  child: ServerChild,
  url: string,
  options: Partial<WaitOptions> & { accept?: (status: number) => boolean } = {},
) {
  const accept = options.accept ?? (() => true);
  return waitUntilReady(
    child,
    async () => {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      return accept(response.status);
    },
    { what: `${url} answering`, ...options },
  );
}

// Ports this process has handed out. The OS hands a just-closed port out again, so without this
// two servers started by one process (SeaweedFS's S3 port and the nine it picks itself, in one
// CI run) could be given the same port and the second would fail to bind. Bounded, because a
// long-lived test process may ask thousands of times; the oldest ports are long bound or gone.
const handedOut = new Set<number>();
const HANDED_OUT_KEPT = 4096;

/**
 * A port free right now that this process has not handed out before. Drawn at random below the
 * kernel's ephemeral range where there is one (Linux): a port the kernel hands out for port 0
 * comes from that range, the same one every outgoing connection's local port comes from, so a
 * client connecting anywhere (PostgreSQL's, Temporal's, a test's own) could take it between this
 * answer and the server's bind (a test run beside another lost SeaweedFS's S3 port between the
 * two: "address already in use"). Below the range only another listener can take it, and two
 * runs drawing at random from some 20,000 ports rarely meet. Elsewhere the kernel's choice.
 */
export async function getFreePort(host = '127.0.0.1'): Promise<number> {
  for (;;) {
    const port = (await drawListenPort(host)) ?? (await askForPort(host));
    if (!handedOut.has(port)) {
      handedOut.add(port);
      if (handedOut.size > HANDED_OUT_KEPT) handedOut.delete(handedOut.values().next().value as number);
      return port;
    }
  }
}

/** The first port drawn from: above the well-known and most registered ones. */
const LISTEN_PORTS_FROM = 10_000;
const EPHEMERAL_FROM = ephemeralRangeStart();

function ephemeralRangeStart(): number | undefined {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low - LISTEN_PORTS_FROM >= 1_000 ? low : undefined;
  } catch {
    return undefined;
  }
}

/** A random port below the ephemeral range that binds right now; undefined when there is no such range or none was found. */
async function drawListenPort(host: string): Promise<number | undefined> {
  if (EPHEMERAL_FROM === undefined) return undefined;
  for (let tries = 0; tries < 64; tries++) {
    const port = LISTEN_PORTS_FROM + Math.floor(Math.random() * (EPHEMERAL_FROM - LISTEN_PORTS_FROM));
    if (await bindOnce(host, port).then(() => true, () => false)) return port;
  }
  return undefined;
}

/** The kernel's choice of a free port. */
const askForPort = (host: string) => bindOnce(host, 0);

/** Binds `port` (0: any), lets it go, and answers the port bound; rejects when it cannot bind. */
function bindOnce(host: string, port: number): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (bound ? resolvePromise(bound) : reject(new Error('no port assigned'))));
    });
  });
}
