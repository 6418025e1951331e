import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { whileHeartbeating } from '../../../activities/heartbeat';

const settle = () => new Promise((r) => setTimeout(r, 50));

describe('whileHeartbeating', () => {
  it('heartbeats while the work runs and stops once it has settled', async () => {
    const env = new MockActivityEnvironment();
    let beats = 0;
    // The work ends on its third heartbeat, so the count does not depend on how fast the machine is.
    const result = await env.run(() =>
      whileHeartbeating(
        () =>
          new Promise<string>((resolve) => {
            env.on('heartbeat', () => {
              if (++beats === 3) resolve('scanned');
            });
          }),
        5,
      ),
    );
    expect(result).toBe('scanned');
    await settle();
    expect(beats).toBe(3);
  });

  it('passes a failure on and stops heartbeating', async () => {
    const env = new MockActivityEnvironment();
    let beats = 0;
    const failing = env.run(() =>
      whileHeartbeating(
        () =>
          new Promise<never>((_, reject) => {
            env.on('heartbeat', () => {
              if (++beats === 2) reject(new Error('clamd went away'));
            });
          }),
        5,
      ),
    );
    await expect(failing).rejects.toThrow('clamd went away');
    await settle();
    expect(beats).toBe(2);
  });
});
