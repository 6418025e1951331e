import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allowedCpus, parseCpuList, pin } from '../../../bench/support/pinning';

const allowedOf = (pid: number) => /^Cpus_allowed_list:\s*(.+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];

describe('bench pinning', () => {
  it('reads CPU lists as Linux writes them', () => {
    expect(parseCpuList('0-3,6')).toEqual([0, 1, 2, 3, 6]);
    expect(parseCpuList('1')).toEqual([1]);
    expect(parseCpuList('0,2-3\n')).toEqual([0, 2, 3]);
    expect(parseCpuList('')).toEqual([]);
    expect(allowedCpus()).toEqual(parseCpuList(allowedOf(process.pid)!));
  });

  it('pins every thread of another process onto the CPUs given', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const first = allowedCpus()[0]!;
      pin(child.pid!, [first]);
      expect(allowedOf(child.pid!)).toBe(String(first));
    } finally {
      child.kill();
    }
  });
});
