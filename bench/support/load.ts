import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuMsOf } from './cpu';

const AUTOCANNON = fileURLToPath(new URL('../../node_modules/autocannon/autocannon.js', import.meta.url));
const TOGETHER_CHILD = fileURLToPath(new URL('./together-load-child.ts', import.meta.url));

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

/** An autocannon JSON result as a LoadResult; with the server's CPU over the load, per CPU-second too. */
function loadResult(r: { '2xx': number; duration: number; latency: { p50: number; p99: number }; non2xx: number; errors: number; requests: { total: number } }, serverCpuMs?: number): LoadResult {
  return {
    requestsPerSec: r['2xx'] / r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    requests: r.requests.total,
    ...(serverCpuMs === undefined ? {} : { serverCpuMs, requestsPerCpuSec: r['2xx'] / (serverCpuMs / 1000) }),
  };
}

/** Only loopback targets: load never leaves this machine. */
export function assertLoopback(url: string) {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) throw new Error('load only targets loopback');
}

type AutocannonResult = Parameters<typeof loadResult>[0];

/**
 * Runs a load generator (`argv` after node) in its own process, so it never shares the servers'
 * event loops, and answers the JSON it printed on stdout with each server's CPU time over the
 * run (the generator's own start-up costs the servers nothing).
 */
function runGenerator(argv: string[], serverPids: number[]): Promise<{ printed: unknown; cpuMs: number[] }> {
  return new Promise((resolve, reject) => {
    const before = serverPids.map(cpuMsOf);
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    // 'close', not 'exit': stdout may still hold the end of the result when the process exits.
    child.on('close', (code) => {
      const cpuMs = serverPids.map((pid, i) => cpuMsOf(pid) - before[i]!);
      if (code !== 0) return reject(new Error(`load generator exited ${code}`));
      try {
        resolve({ printed: JSON.parse(out), cpuMs });
      } catch {
        reject(new Error(`load generator printed no result: ${out.slice(0, 200)}`));
      }
    });
  });
}

/** runGenerator for a generator that prints one autocannon result; with `serverPid`, per CPU-second too. */
export async function runLoadChild(argv: string[], serverPid?: number): Promise<LoadResult> {
  const { printed, cpuMs } = await runGenerator(argv, serverPid === undefined ? [] : [serverPid]);
  return loadResult(printed as AutocannonResult, cpuMs[0]);
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

export interface TogetherTarget {
  url: string;
  headers?: Record<string, string>;
}

/**
 * Loads every target at the same time for `seconds` (one generator process, one autocannon per
 * target, `connections` each) and answers each target's result with its server's CPU time over
 * the same window: servers measured together share every slowdown of the machine, which servers
 * measured one after another do not (pinning.ts says by how much). GET only.
 */
export async function runLoadsTogether(targets: (TogetherTarget & { serverPid: number })[], seconds: number, connections: number): Promise<LoadResult[]> {
  for (const t of targets) assertLoopback(t.url);
  const spec = { targets: targets.map(({ url, headers }) => ({ url, headers })), seconds, connections };
  const { printed, cpuMs } = await runGenerator(['--import', 'tsx', TOGETHER_CHILD, JSON.stringify(spec)], targets.map((t) => t.serverPid));
  return (printed as AutocannonResult[]).map((r, i) => loadResult(r, cpuMs[i]));
}
