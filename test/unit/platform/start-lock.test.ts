// The machine-wide lock `npm start` holds while it picks its servers' ports: two starts take turns,
// a holder that dies frees it, and a port held by something else only delays a start.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { getFreePort } from '../../../workers/embedded/child-process';
import { withStartLock } from '../../../workers/embedded/start-lock';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('withStartLock', () => {
  it('lets one start at a time pick ports, in turn', async () => {
    const port = await getFreePort();
    const steps: string[] = [];
    const start = (name: string) =>
      withStartLock(
        async () => {
          steps.push(`${name} in`);
          await pause(300);
          steps.push(`${name} out`);
          return name;
        },
        { port },
      );
    expect(await Promise.all([start('a'), start('b'), start('c')])).toEqual(['a', 'b', 'c']);
    // Each start leaves before the next comes in, whichever order they got the lock in.
    for (let i = 0; i < steps.length; i += 2) expect(steps[i + 1]).toBe(steps[i]!.replace(' in', ' out'));
    expect(steps).toHaveLength(6);
  });

  it('is free again when its holder dies without letting go', async () => {
    const port = await getFreePort();
    const holder = spawn(process.execPath, ['-e', `require('net').createServer().listen(${port}, '127.0.0.1', () => console.log('holding'))`]);
    await once(holder.stdout!, 'data');
    let killedAt = 0;
    const waiting = withStartLock(async () => Date.now(), { port, waitMs: 60_000 });
    await pause(500);
    killedAt = Date.now();
    holder.kill('SIGKILL');
    expect(await waiting).toBeGreaterThanOrEqual(killedAt);
  });

  it('starts without the lock, and says so, when something else keeps the port past the wait', async () => {
    const port = await getFreePort();
    const other = createServer().listen(port, '127.0.0.1');
    await once(other, 'listening');
    const said: string[] = [];
    try {
      expect(await withStartLock(async () => 'started', { port, waitMs: 400, log: (m) => said.push(m) })).toBe('started');
    } finally {
      other.close();
    }
    expect(said).toEqual([
      `another stack on this machine is starting (it holds port ${port}): waiting for it`,
      `port ${port} stayed taken: starting without the start lock`,
    ]);
  });
});
