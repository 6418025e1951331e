import { readFileSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { getFreePort } from '../../../workers/embedded/child-process';

const ephemeralFrom = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

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

  it('answers ports below the ephemeral range, which no outgoing connection takes before the server binds', async () => {
    const ports = await Promise.all(Array.from({ length: 50 }, () => getFreePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralFrom);
    }
    // And the outgoing side indeed draws from the range: 50 connections' local ports.
    const server = await new Promise<Server>((resolve) => {
      const s = createServer((socket) => socket.destroy()).listen(0, '127.0.0.1', () => resolve(s));
    });
    const { port } = server.address() as { port: number };
    const locals = await Promise.all(
      Array.from({ length: 50 }, () => new Promise<number>((resolve, reject) => {
        const socket = createConnection(port, '127.0.0.1', () => {
          resolve(socket.localPort!);
          socket.destroy();
        }).once('error', reject);
      })),
    );
    server.close();
    for (const local of locals) expect(local).toBeGreaterThanOrEqual(ephemeralFrom);
  });

  it('answers ports that bind, all at once', async () => {
    const ports = await Promise.all(Array.from({ length: 100 }, () => getFreePort()));
    const servers = await Promise.all(
      ports.map((p) => new Promise<Server>((resolve, reject) => {
        const s = createServer().once('error', reject).listen(p, '127.0.0.1', () => resolve(s));
      })),
    );
    expect(servers).toHaveLength(100);
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });
});
