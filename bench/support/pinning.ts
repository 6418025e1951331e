// CPU pinning for measurements made side by side at the same time (load.ts' runLoadsTogether).
//
// On these shared virtual machines a CPU-second is not a fixed amount of work: what else runs on
// the host's core under a vCPU changes it from one second to the next. Two identical API nodes
// loaded one after the other, 4 s each, differed by up to 40% in answers per CPU-second from one
// round to the next, and by 15% over the median of eight rounds; loaded at the same time but free
// to move between the two vCPUs, still by 20-35% a round. Pinned to the same vCPU and loaded at the
// same time, they share every slowdown: 1-4% a round. So the servers being compared run on one CPU
// and everything else (the bench, its load generator, PostgreSQL, sinks) on the others.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The CPUs this process may run on. */
export function allowedCpus(): number[] {
  return parseCpuList(/^Cpus_allowed_list:\s*(.+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? '');
}

/** A CPU list as Linux writes it ("0-3,6") as CPU numbers. */
export function parseCpuList(list: string): number[] {
  return list.split(',').flatMap((part) => {
    if (!/^\s*\d+(-\d+)?\s*$/.test(part)) return [];
    const [from, to] = part.trim().split('-').map(Number) as [number, number?];
    return Array.from({ length: (to ?? from) - from + 1 }, (_, i) => from + i);
  });
}

/** Moves every thread of `pid` onto `cpus` (taskset; children it starts later inherit them). */
export function pin(pid: number, cpus: number[]): void {
  execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpus.join(','), String(pid)], { stdio: 'ignore' });
}

export interface Placement {
  /** Where the servers under comparison run, or undefined when this machine cannot pin. */
  servers: number[] | undefined;
  /** Where the rest runs. */
  rest: number[] | undefined;
}

/**
 * Pins this process (and so the children it starts from now on) away from one CPU kept for the
 * servers; call before starting anything else. Without two CPUs or taskset, pins nothing.
 */
export function placeSelf(): Placement {
  const cpus = allowedCpus();
  if (cpus.length < 2) return { servers: undefined, rest: undefined };
  const servers = cpus.slice(0, 1);
  const rest = cpus.slice(1);
  try {
    pin(process.pid, rest);
  } catch {
    return { servers: undefined, rest: undefined };
  }
  return { servers, rest };
}
