import { describe, expect, it } from 'vitest';
import { getFreePort } from '../../../workers/embedded/child-process';

describe('getFreePort', () => {
  it('never hands one process the same port twice (the OS would: a CI run once gave SeaweedFS its S3 port again)', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 1000; i += 1) ports.push(await getFreePort());
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('is not fooled by parallel askers', async () => {
    const ports = await Promise.all(Array.from({ length: 200 }, () => getFreePort()));
    expect(new Set(ports).size).toBe(ports.length);
  });
});
