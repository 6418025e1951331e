import { fileURLToPath } from 'node:url';
import { assertLoopback, runLoadChild, type LoadResult } from './load';

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
export function runRotatingLoad(opts: RotatingLoadOptions): Promise<LoadResult> {
  assertLoopback(opts.url);
  return runLoadChild(['--import', 'tsx', CHILD, JSON.stringify(opts)]);
}
