import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuMsOf } from './cpu';

const AUTOCANNON = fileURLToPath(new URL('../../node_modules/autocannon/autocannon.js', import.meta.url));

export interface LoadResult {
  /** Successful (2xx) answers a second: a node that fails fast must not look fast. */
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  requests: number;
  /** With `serverPid`: CPU the server used during the load, and 2xx answers per CPU-second of it. */
  serverCpuMs?: number;
  requestsPerCpuSec?: number;
}

/** Only loopback targets: load never leaves this machine. */
export function assertLoopback(url: string) {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) throw new Error('load only targets loopback');
}

/**
 * Runs a load generator (`argv` after node) in its own process, so it never shares the
 * server's event loop, and reads autocannon's JSON result from its stdout. With `serverPid`,
 * also the server's CPU time over the load (the generator's own start-up costs the server nothing).
 */
export function runLoadChild(argv: string[], serverPid?: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const cpuBefore = serverPid === undefined ? NaN : cpuMsOf(serverPid);
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    // 'close', not 'exit': stdout may still hold the end of the result when the process exits.
    child.on('close', (code) => {
      const serverCpuMs = serverPid === undefined ? undefined : cpuMsOf(serverPid) - cpuBefore;
      if (code !== 0) return reject(new Error(`load generator exited ${code}`));
      let r;
      try {
        r = JSON.parse(out);
      } catch {
        return reject(new Error(`load generator printed no result: ${out.slice(0, 200)}`));
      }
      resolve({
        requestsPerSec: r['2xx'] / r.duration,
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors,
        requests: r.requests.total,
        ...(serverCpuMs === undefined ? {} : { serverCpuMs, requestsPerCpuSec: r['2xx'] / (serverCpuMs / 1000) }),
      });
    });
  });
}

/** autocannon against one URL with one fixed request, bounded by `seconds`. */
export function runLoad(opts: {
  url: string;
  seconds: number;
  connections: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The server's process, when the bench should report its CPU time per request. */
  serverPid?: number;
}): Promise<LoadResult> {
  assertLoopback(opts.url);
  const args = [AUTOCANNON, '--json', '-c', String(opts.connections), '-d', String(opts.seconds), '-m', opts.method ?? 'GET'];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (opts.body !== undefined) args.push('-b', opts.body);
  args.push(opts.url);
  return runLoadChild(args, opts.serverPid);
}
