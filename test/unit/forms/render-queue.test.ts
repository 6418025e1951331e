// Render concurrency (spec): one render at a time behind a bounded queue; 503 when flooded.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../domain/errors';
import { RenderQueue } from '../../../services/forms/render-queue';

const deferred = <T = void>() => {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};
const tick = () => new Promise((r) => setImmediate(r));

describe('render queue', () => {
  it('runs one render at a time and starts waiting renders in arrival order', async () => {
    const q = new RenderQueue({ concurrency: 1, queueSize: 8 });
    const started: number[] = [];
    const gates = [0, 1, 2, 3].map(() => deferred());
    const runs = gates.map((g, i) =>
      q.run(async () => {
        started.push(i);
        await g.promise;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0]);
    expect([q.running, q.queued]).toEqual([1, 3]);
    for (const i of [0, 1, 2, 3]) {
      gates[i]!.resolve();
      await tick();
    }
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
    expect([q.running, q.queued]).toEqual([0, 0]);
  });

  it('a render arriving when the queue is full is refused at once: 503 render-queue-full with a Retry-After hint', async () => {
    const q = new RenderQueue({ concurrency: 1, queueSize: 2, initialEstimateMs: 1500 });
    const gate = deferred();
    const held = [0, 1, 2].map(() => q.run(() => gate.promise));
    await tick();
    const err = await q.run(async () => 'never').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(503);
    expect((err as AppError).code).toBe('render-queue-full');
    // two waiting + this one, at 1.5 s each, one at a time
    expect((err as AppError).extra['retryAfterSeconds']).toBe(5);
    gate.resolve();
    await Promise.all(held);
    expect(await q.run(async () => 'after')).toBe('after');
  });

  it('queue-size 0: only the running render, every other one refused', async () => {
    const q = new RenderQueue({ concurrency: 1, queueSize: 0 });
    const gate = deferred();
    const first = q.run(() => gate.promise);
    await expect(q.run(async () => 1)).rejects.toMatchObject({ code: 'render-queue-full' });
    gate.resolve();
    await first;
  });

  it('a failing render frees its slot for the next one', async () => {
    const q = new RenderQueue({ concurrency: 1, queueSize: 1 });
    const gate = deferred();
    const failing = q.run(async () => {
      await gate.promise;
      throw new Error('chromium crashed');
    });
    const next = q.run(async () => 'next');
    gate.resolve();
    await expect(failing).rejects.toThrow('chromium crashed');
    expect(await next).toBe('next');
    expect([q.running, q.queued]).toEqual([0, 0]);
  });

  it('a synchronous throw frees the slot too', async () => {
    const q = new RenderQueue({ concurrency: 1, queueSize: 0 });
    await expect(q.run(() => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(await q.run(async () => 'ok')).toBe('ok');
  });

  it('concurrency n runs n at once', async () => {
    const q = new RenderQueue({ concurrency: 2, queueSize: 1 });
    const gate = deferred();
    let running = 0;
    let peak = 0;
    const task = async () => {
      running += 1;
      peak = Math.max(peak, running);
      await gate.promise;
      running -= 1;
    };
    const runs = [q.run(task), q.run(task), q.run(task)];
    await tick();
    expect([q.running, q.queued]).toEqual([2, 1]);
    await expect(q.run(task)).rejects.toMatchObject({ code: 'render-queue-full' });
    gate.resolve();
    await Promise.all(runs);
    expect(peak).toBe(2);
  });
});
