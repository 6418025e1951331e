import { createServer, type Server } from 'node:net';
import { isPortOpen } from './child-process';

/**
 * The port an `npm start` on this machine listens on while it picks its servers' ports and starts
 * them. Below the ephemeral ranges of Linux (32768-60999) and macOS (49152-65535), so no port the
 * OS picks for a test server or an outgoing connection is ever this one.
 */
export const START_LOCK_PORT = 27_233;

export interface StartLockOptions {
  port?: number;
  /** How long to wait for another holder before starting without the lock. */
  waitMs?: number;
  log?: (msg: string) => void;
}

export interface StartLock {
  /** Lets the next start in; calling it again does nothing. */
  release(): Promise<void>;
}

/**
 * Takes a lock shared by every process on this machine, to hold while a start picks ports and
 * until the processes it chose them for listen (`releaseWhenListening`). `npm start` takes the
 * conventional ports (5432, 7233, 8333, 1025, 1080) when it finds them free; two stacks begun in
 * the same second both found them free, and the one whose server then lost the bind found the
 * other's server answering its readiness check, so the two stacks shared a database and a mail
 * catcher without a word. Under the lock the second stack looks only once the first one's servers
 * listen, finds the ports taken and picks free ones.
 *
 * The lock is a listening socket on `port`: the OS gives it to one process at a time and frees it
 * when that process ends, however it ends, so no lock outlives its holder. Something else holding
 * the port past `waitMs` only costs the wait: the start then goes on without the lock.
 */
export async function acquireStartLock(options: StartLockOptions = {}): Promise<StartLock> {
  const port = options.port ?? START_LOCK_PORT;
  const deadline = Date.now() + (options.waitMs ?? 180_000);
  let lock: Server | undefined;
  let told = false;
  for (;;) {
    lock = await listenOn(port);
    if (lock) break;
    if (Date.now() >= deadline) {
      options.log?.(`port ${port} stayed taken: starting without the start lock`);
      break;
    }
    if (!told) options.log?.(`another stack on this machine is starting (it holds port ${port}): waiting for it`);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  let released: Promise<void> | undefined;
  return {
    release: () => (released ??= new Promise<void>((resolve) => (lock ? lock.close(() => resolve()) : resolve()))),
  };
}

/** A server listening on `port`, or undefined when the port is taken. */
function listenOn(port: number): Promise<Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(undefined) : reject(err)));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.unref();
      resolve(server);
    });
  });
}

/**
 * Releases `lock` once every port in `ports` accepts connections on 127.0.0.1 (the ports a start
 * chose for processes that bind them later), or after `timeoutMs` when one never does (a role
 * that crashes at boot must not keep every other start on the machine waiting).
 */
export async function releaseWhenListening(lock: StartLock, ports: number[], options: { timeoutMs?: number; pollMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  try {
    let waiting = ports.filter((p) => p > 0);
    while (waiting.length > 0 && Date.now() < deadline) {
      const open = await Promise.all(waiting.map((p) => isPortOpen(p)));
      waiting = waiting.filter((_, i) => !open[i]);
      if (waiting.length > 0) await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
    }
  } finally {
    await lock.release();
  }
}
