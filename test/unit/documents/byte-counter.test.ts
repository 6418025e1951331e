import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { ByteCounter, SizeLimitExceeded } from '../../../domain/documents/byte-counter';

function chunked(data: Buffer, size: number): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
    })(),
  );
}

async function run(data: Buffer, maxBytes: number, chunkSize = 1024) {
  const counter = new ByteCounter({ maxBytes });
  const received: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      received.push(chunk);
      cb();
    },
  });
  await pipeline(chunked(data, chunkSize), counter, sink);
  return { counter, out: Buffer.concat(received) };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('ByteCounter', () => {
  it('passes bytes through unchanged and reports size and SHA-256', async () => {
    const data = Buffer.from('hello world\n'.repeat(1000));
    const { counter, out } = await run(data, 1 << 20, 777);
    expect(out.equals(data)).toBe(true);
    expect(counter.result()).toEqual({ sizeBytes: data.length, sha256: sha256(data) });
  });

  it('hashes the empty input correctly', async () => {
    const { counter } = await run(Buffer.alloc(0), 10);
    expect(counter.result()).toEqual({
      sizeBytes: 0,
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    });
  });

  it('accepts exactly the cap', async () => {
    const data = Buffer.alloc(4096, 7);
    const { counter, out } = await run(data, 4096, 1000);
    expect(out.length).toBe(4096);
    expect(counter.result()).toEqual({ sizeBytes: 4096, sha256: sha256(data) });
  });

  it.each([1, 1000, 4097])('fails at cap+1 (chunks of %i) without forwarding the excess', async (chunkSize) => {
    const data = Buffer.alloc(4097, 7);
    const counter = new ByteCounter({ maxBytes: 4096 });
    let forwarded = 0;
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        forwarded += chunk.length;
        cb();
      },
    });
    const err = await pipeline(chunked(data, chunkSize), counter, sink).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SizeLimitExceeded);
    expect(err).toMatchObject({ name: 'SizeLimitExceeded', limitBytes: 4096 });
    expect(forwarded).toBeLessThanOrEqual(4096);
    expect(() => counter.result()).toThrow();
  });

  it('stops reading the source once the cap is crossed (an endless source ends)', async () => {
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += 1024;
        this.push(Buffer.alloc(1024));
      },
    });
    const err = await pipeline(endless, new ByteCounter({ maxBytes: 10_000 }), new Writable({ write: (_c, _e, cb) => cb() })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SizeLimitExceeded);
    expect(endless.destroyed).toBe(true);
    expect(produced).toBeLessThan(100_000);
  });

  it('a zero cap refuses any byte', async () => {
    const err = await run(Buffer.from('x'), 0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SizeLimitExceeded);
  });

  it('refuses a nonsensical cap', () => {
    expect(() => new ByteCounter({ maxBytes: -1 })).toThrow(RangeError);
    expect(() => new ByteCounter({ maxBytes: 1.5 })).toThrow(RangeError);
  });
});
