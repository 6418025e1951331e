import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from './load';

const CHILD = fileURLToPath(new URL('./rotating-load-child.ts', import.meta.url));

export interface RotatingLoadOptions {
  url: string;
  seconds: number;
  connections: number;
  method?: string;
  headers?: Record<string, string>;
  /**
   * Body templates. Request k renders template ⌊k / count⌋ mod bodies.length with every
   * `placeholder` replaced by k mod count, so each round walks `count` keys (e.g. call ids) once.
   */
  bodies: string[];
  placeholder: string;
  count: number;
}

/**
 * Like load.ts' runLoad (autocannon in its own process, loopback only, bounded), but with a
 * different body per request: writes spread over many rows instead of queueing on one.
 */
export function runRotatingLoad(opts: RotatingLoadOptions): Promise<LoadResult & { requests: number }> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(opts.url)) throw new Error('load only targets loopback');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(opts)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load child exited ${code}`));
      const r = JSON.parse(out);
      resolve({
        requestsPerSec: r.requests.average,
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors,
        requests: r.requests.total,
      });
    });
  });
}
