// CPU time a process has used, all its threads (JavaScript, GC helpers, libuv's pool), read
// from /proc. On a shared machine a server's throughput in wall time swings with whatever else
// runs; requests per CPU-second of the server itself is what its code costs, and holds still.
import { readFileSync, readdirSync } from 'node:fs';

/** Milliseconds of CPU `pid` has used so far (Linux; nanosecond precision from schedstat). */
export function cpuMsOf(pid: number): number {
  let ns = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // a thread that ended between the listing and the read
      }
    }
    return ns / 1e6;
  } catch {
    return NaN;
  }
}
