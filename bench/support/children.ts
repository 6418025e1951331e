// Child processes of the benches: servers and sinks that must not share the bench's event loop
// (their memory is measured, or their globals such as OpenTelemetry's context manager differ).
// Two kinds, both node running tsx:
// - startLineChild: the child prints one JSON line on stdout once ready and exits when its stdin
//   closes (observability-server, otlp-sink);
// - forkPortChild: the child sends `{ port }` over IPC once listening and exits when the parent
//   disconnects (documents-server, render-server, passthrough-server, contract-floor-server).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = (script: string) => fileURLToPath(new URL(script, import.meta.url));

export interface LineChild<T> {
  proc: ChildProcess;
  /** What the child printed once ready. */
  ready: T;
  stop(): Promise<void>;
}

/** Starts `script` (relative to bench/support) and waits for its ready line. */
export async function startLineChild<T = { port: number }>(script: string, args: string[] = [], env: Record<string, string> = {}): Promise<LineChild<T>> {
  const proc = spawn(process.execPath, ['--import', 'tsx', here(script), ...args], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const line = await new Promise<string>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${script} exited ${code} before it was ready`)));
    createInterface({ input: proc.stdout! }).once('line', resolve);
  });
  proc.removeAllListeners('exit');
  const stop = () =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.stdin!.end();
    });
  return { proc, ready: JSON.parse(line) as T, stop };
}

export interface PortChild {
  proc: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/** Forks `script` (relative to bench/support) with IPC and waits for the port it listens on. */
export async function forkPortChild(script: string, env: Record<string, string>, execArgv: string[] = []): Promise<PortChild> {
  const proc = fork(here(script), [], { execArgv: [...execArgv, '--import', 'tsx'], env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    proc.once('message', (m: { port?: number }) => (m.port ? resolve(m.port) : reject(new Error(`${script} sent no port`))));
    proc.once('exit', (code) => reject(new Error(`${script} exited ${code} before it listened`)));
  });
  proc.removeAllListeners('exit');
  const stop = async () => {
    if (proc.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    if (proc.connected) proc.disconnect();
    // The child closes its servers on disconnect; one that hangs is killed.
    const timer = setTimeout(() => proc.kill(), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return { proc, port, stop };
}
