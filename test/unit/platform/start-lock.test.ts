// The machine-wide lock `npm start` holds while it picks its servers' ports: two starts take turns,
// a holder that dies frees it, and a port held by something else only delays a start.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { getFreePort } from '../../../workers/embedded/child-process';
import { acquireStartLock, releaseWhenListening } from '../../../workers/embedded/start-lock';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the start lock', () => {
  it('lets one start at a time pick ports, in turn', async () => {
    const port = await getFreePort();
    const steps: string[] = [];
    const start = async (name: string) => {
      const lock = await acquireStartLock({ port });
      steps.push(`${name} in`);
      await pause(300);
      steps.push(`${name} out`);
      await lock.release();
      return name;
    };
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
    const waiting = acquireStartLock({ port, waitMs: 60_000 }).then(async (lock) => {
      const at = Date.now();
      await lock.release();
      return at;
    });
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
      await acquireStartLock({ port, waitMs: 400, log: (m) => said.push(m) });
    } finally {
      other.close();
    }
    expect(said).toEqual([
      `another stack on this machine is starting (it holds port ${port}): waiting for it`,
      `port ${port} stayed taken: starting without the start lock`,
    ]);
  });

  it('is held until the ports a start chose for its roles listen, then lets the next start in', async () => {
    const [port, rolePort] = [await getFreePort(), await getFreePort()];
    const first = await acquireStartLock({ port });
    const releasing = releaseWhenListening(first, [rolePort, 0], { pollMs: 20 });
    let secondIn = false;
    const second = acquireStartLock({ port }).then((lock) => {
      secondIn = true;
      return lock;
    });
    await pause(400);
    // The role has not bound its port yet: the next start still waits.
    expect(secondIn).toBe(false);
    const role = createServer().listen(rolePort, '127.0.0.1');
    await once(role, 'listening');
    try {
      await releasing;
      await (await second).release();
      expect(secondIn).toBe(true);
    } finally {
      role.close();
    }
  });

  it('is let go when a role never listens, after the bound', async () => {
    const [port, rolePort] = [await getFreePort(), await getFreePort()];
    const first = await acquireStartLock({ port });
    const started = Date.now();
    await releaseWhenListening(first, [rolePort], { timeoutMs: 300, pollMs: 20 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    const said: string[] = [];
    const next = await acquireStartLock({ port, waitMs: 0, log: (m) => said.push(m) });
    await next.release();
    expect(said).toEqual([]);
    // Released once; a second release is a no-op, not an error.
    await first.release();
  });
});
