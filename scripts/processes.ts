// Process-table helpers for scripts/check-embedded.ts: which processes a server left behind.
import { readdir, readFile } from 'node:fs/promises';

export interface Proc {
  pid: number;
  ppid: number;
  cmdline: string;
}

export async function listProcesses(): Promise<Proc[]> {
  const procs: Proc[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      procs.push({ pid: Number(entry), ppid: Number(fields[1]), cmdline });
    } catch {
      // exited while we looked
    }
  }
  return procs;
}

/**
 * The servers (their command line names the data dir) and everything they
 * forked. Descendants are found by parent pid, not session: postgres children
 * call setsid() themselves.
 */
export async function serverProcesses(dir: string): Promise<Proc[]> {
  const procs = await listProcesses();
  const found = new Map<number, Proc>();
  for (const p of procs) {
    if (p.cmdline.includes(dir) && !p.cmdline.includes('--serve') && p.pid !== process.pid) found.set(p.pid, p);
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) {
      if (!found.has(p.pid) && found.has(p.ppid)) {
        found.set(p.pid, p);
        grew = true;
      }
    }
  }
  return [...found.values()];
}

/** Waits until none of `seen` is alive and nothing new runs from `dir`. */
export async function waitForGone(seen: Proc[], dir: string, timeoutMs: number): Promise<Proc[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = new Set((await listProcesses()).map((p) => p.pid));
    const left = [...seen.filter((p) => alive.has(p.pid)), ...(await serverProcesses(dir)).filter((p) => !seen.some((s) => s.pid === p.pid))];
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function describeProcesses(procs: Proc[]): string {
  return procs.map((p) => `${p.pid} ${p.cmdline.slice(0, 80)}`).join('; ');
}
