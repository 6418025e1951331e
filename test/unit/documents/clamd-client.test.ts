// Protocol-level tests of the clamd client against a scripted fake server, so
// the unit project needs no clamd. The real-clamd test is test/integration/clamd.test.ts.
import net from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ClamdError, createClamdClient, parseScanReply } from '../../../integrations/clamav/clamd-client';

interface Received {
  command: string;
  chunks: number[];
  body: Buffer;
  terminated: boolean;
}

type Behaviour = (socket: net.Socket, received: Received, event: 'command' | 'chunk' | 'end') => void;

const servers: net.Server[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  // A paused server socket never sees the client's close; destroy it so close() returns.
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A fake clamd that decodes INSTREAM framing and lets each test decide what to answer. */
async function fakeClamd(behaviour: Behaviour, opts: { pauseReading?: boolean } = {}) {
  const sessions: Received[] = [];
  const server = net.createServer((socket) => {
    const received: Received = { command: '', chunks: [], body: Buffer.alloc(0), terminated: false };
    sessions.push(received);
    sockets.push(socket);
    let buffer = Buffer.alloc(0);
    const bodies: Buffer[] = [];
    if (opts.pauseReading) socket.pause();
    socket.on('error', () => undefined);
    socket.on('data', (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      if (!received.command) {
        const nul = buffer.indexOf(0);
        if (nul < 0) return;
        received.command = buffer.subarray(0, nul).toString();
        buffer = buffer.subarray(nul + 1);
        behaviour(socket, received, 'command');
      }
      while (received.command === 'zINSTREAM' && !received.terminated && buffer.length >= 4) {
        const len = buffer.readUInt32BE(0);
        if (len === 0) {
          received.terminated = true;
          received.body = Buffer.concat(bodies);
          buffer = buffer.subarray(4);
          behaviour(socket, received, 'end');
          return;
        }
        if (buffer.length < 4 + len) return;
        bodies.push(Buffer.from(buffer.subarray(4, 4 + len)));
        received.chunks.push(len);
        buffer = buffer.subarray(4 + len);
        behaviour(socket, received, 'chunk');
      }
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address() as net.AddressInfo;
  return { port: address.port, sessions };
}

const answer =
  (reply: string): Behaviour =>
  (socket, _r, event) => {
    if (event === 'end' || (event === 'command' && _r.command === 'zPING')) socket.end(`${reply}\0`);
  };

async function kindOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (err) {
    if (err instanceof ClamdError) return err.kind;
    throw err;
  }
}

describe('clamd client: verdicts', () => {
  it('frames INSTREAM as length-prefixed chunks of at most chunkBytes, then a zero terminator', async () => {
    const fake = await fakeClamd(answer('stream: OK'));
    const client = createClamdClient({ host: '127.0.0.1', port: fake.port, chunkBytes: 1000 });
    const data = Buffer.alloc(2500, 1);
    expect(await client.scanBuffer(data)).toEqual({ verdict: 'clean' });
    const s = fake.sessions[0];
    expect(s?.command).toBe('zINSTREAM');
    expect(s?.chunks).toEqual([1000, 1000, 500]);
    expect(s?.terminated).toBe(true);
    expect(s?.body.equals(data)).toBe(true);
  });

  it('streams a Readable and sends its bytes in order', async () => {
    const fake = await fakeClamd(answer('stream: OK'));
    const client = createClamdClient({ host: '127.0.0.1', port: fake.port });
    const parts = ['a', 'bb', 'ccc'].map((s) => Buffer.from(s));
    expect(await client.scanStream(Readable.from(parts))).toEqual({ verdict: 'clean' });
    expect(fake.sessions[0]?.body.toString()).toBe('abbccc');
  });

  it('reports a detection with its signature name', async () => {
    const fake = await fakeClamd(answer('stream: Eicar-Signature FOUND'));
    const client = createClamdClient({ host: '127.0.0.1', port: fake.port });
    expect(await client.scanBuffer(Buffer.from('x'))).toEqual({ verdict: 'infected', signature: 'Eicar-Signature' });
  });

  it('an empty stream is still framed and answered', async () => {
    const fake = await fakeClamd(answer('stream: OK'));
    const client = createClamdClient({ host: '127.0.0.1', port: fake.port });
    expect(await client.scanStream(Readable.from([]))).toEqual({ verdict: 'clean' });
    expect(fake.sessions[0]?.chunks).toEqual([]);
  });

  it('ping expects PONG', async () => {
    const fake = await fakeClamd(answer('PONG'));
    await expect(createClamdClient({ host: '127.0.0.1', port: fake.port }).ping()).resolves.toBeUndefined();
    const wrong = await fakeClamd(answer('PANG'));
    expect(await kindOf(createClamdClient({ host: '127.0.0.1', port: wrong.port }).ping())).toBe('protocol');
  });
});

describe('clamd client: every failure is a ClamdError, never clean (fail closed)', () => {
  it('size limit reply mid-stream is a limit error and stops sending', async () => {
    const fake = await fakeClamd((socket, r, event) => {
      if (event === 'chunk' && r.chunks.length === 2) socket.end('INSTREAM size limit exceeded. ERROR\0');
    });
    const client = createClamdClient({ host: '127.0.0.1', port: fake.port, chunkBytes: 1024 });
    expect(await kindOf(client.scanBuffer(Buffer.alloc(8 * 1024 * 1024)))).toBe('limit');
  });

  it.each(['stream: Can\'t allocate memory ERROR', 'stream: lstat() failed: No such file ERROR', 'UNKNOWN COMMAND', 'stream: '])(
    'error or unknown reply %j is a protocol error',
    async (reply) => {
      const fake = await fakeClamd(answer(reply));
      expect(await kindOf(createClamdClient({ host: '127.0.0.1', port: fake.port }).scanBuffer(Buffer.from('x')))).toBe('protocol');
    },
  );

  it('an "OK" cut off before its NUL terminator is not clean', async () => {
    const fake = await fakeClamd((socket, _r, event) => {
      if (event === 'end') socket.end('stream: OK');
    });
    expect(await kindOf(createClamdClient({ host: '127.0.0.1', port: fake.port }).scanBuffer(Buffer.from('x')))).toBe('protocol');
  });

  it('a close without any reply is a connection error', async () => {
    const fake = await fakeClamd((socket, _r, event) => {
      if (event === 'end') socket.end();
    });
    expect(await kindOf(createClamdClient({ host: '127.0.0.1', port: fake.port }).scanBuffer(Buffer.from('x')))).toBe('connection');
  });

  it('a reset mid-stream is a connection error', async () => {
    const fake = await fakeClamd((socket, r, event) => {
      if (event === 'chunk' && r.chunks.length === 1) socket.resetAndDestroy();
    });
    const client = createClamdClient({ host: '127.0.0.1', port: fake.port, chunkBytes: 1024 });
    expect(await kindOf(client.scanBuffer(Buffer.alloc(4 * 1024 * 1024)))).toBe('connection');
  });

  it('a refused connection is a connection error', async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    expect(await kindOf(createClamdClient({ host: '127.0.0.1', port }).scanBuffer(Buffer.from('x')))).toBe('connection');
    expect(await kindOf(createClamdClient({ host: '127.0.0.1', port }).ping())).toBe('connection');
  });

  it('a server that never answers times out', async () => {
    const fake = await fakeClamd(() => undefined);
    const client = createClamdClient({ host: '127.0.0.1', port: fake.port, timeoutMs: 200 });
    const started = Date.now();
    expect(await kindOf(client.scanBuffer(Buffer.from('x')))).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a server that stops reading times out instead of buffering the whole stream (back-pressure)', async () => {
    const fake = await fakeClamd(() => undefined, { pauseReading: true });
    const client = createClamdClient({ host: '127.0.0.1', port: fake.port, timeoutMs: 300, chunkBytes: 64 * 1024 });
    let pulled = 0;
    const source = new Readable({
      read() {
        pulled += 64 * 1024;
        this.push(pulled > 256 * 1024 * 1024 ? null : Buffer.alloc(64 * 1024));
      },
    });
    expect(await kindOf(client.scanStream(source))).toBe('timeout');
    // Only socket buffers' worth was read from the source, not the 256 MiB on offer.
    expect(pulled).toBeLessThan(64 * 1024 * 1024);
  });

  it('a source that stalls is cut off by the deadline', async () => {
    const fake = await fakeClamd(() => undefined);
    const client = createClamdClient({ host: '127.0.0.1', port: fake.port, timeoutMs: 200 });
    const stalled = new Readable({ read() {} });
    expect(await kindOf(client.scanStream(stalled))).toBe('timeout');
  });

  it('a source error propagates as that error (the scan is not clean)', async () => {
    const fake = await fakeClamd(answer('stream: OK'));
    const client = createClamdClient({ host: '127.0.0.1', port: fake.port });
    const broken = new Readable({
      read() {
        this.destroy(new Error('S3 read failed'));
      },
    });
    await expect(client.scanStream(broken)).rejects.toThrow('S3 read failed');
  });
});

describe('parseScanReply', () => {
  it.each([
    ['stream: OK', { verdict: 'clean' }],
    ['stream: Win.Test.EICAR_HDB-1 FOUND', { verdict: 'infected', signature: 'Win.Test.EICAR_HDB-1' }],
    ['stream: Heuristics.Limits.Exceeded.MaxFileSize FOUND', { verdict: 'infected', signature: 'Heuristics.Limits.Exceeded.MaxFileSize' }],
  ])('%j', (reply, result) => {
    expect(parseScanReply(reply)).toEqual(result);
  });
  it.each(['', 'OK', 'stream: ok', 'stream: OK trailing', ' stream: OK', 'stream: FOUND', 'INSTREAM size limit exceeded. ERROR'])(
    '%j is never clean',
    (reply) => {
      expect(() => parseScanReply(reply)).toThrow(ClamdError);
    },
  );
});
