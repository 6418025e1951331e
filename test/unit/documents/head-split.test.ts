import { randomBytes } from 'node:crypto';
import { PassThrough, Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { HeadNotReached, splitHead } from '../../../integrations/docstore/head-split';

function chunked(data: Buffer, size: number): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
    })(),
  );
}

/** A head consumer that keeps every byte and reports when the head ended. */
function collector() {
  const got: Buffer[] = [];
  let ended = false;
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      got.push(chunk);
      cb();
    },
    final(cb) {
      ended = true;
      cb();
    },
  });
  return { sink, bytes: () => Buffer.concat(got), ended: () => ended };
}

describe('splitHead', () => {
  const data = randomBytes(10_000);

  it.each([
    ['inside a chunk', 4_500, 1_000],
    ['on a chunk boundary', 4_000, 1_000],
    ['at the very end (empty tail)', 10_000, 999],
    ['at zero (everything is tail)', 0, 1_000],
  ])('passes exactly the head through and returns the rest: split %s', async (_name, headBytes, chunk) => {
    const head = collector();
    const tail = await splitHead(chunked(data, chunk), head.sink, headBytes, new AbortController().signal);
    await new Promise((r) => setImmediate(r));
    expect(head.ended()).toBe(true);
    expect(head.bytes().equals(data.subarray(0, headBytes))).toBe(true);
    expect(tail.equals(data.subarray(headBytes))).toBe(true);
  });

  it('rejects with HeadNotReached when the source ends before the promised head', async () => {
    const head = collector();
    const err = await splitHead(chunked(data, 1_000), head.sink, 12_000, new AbortController().signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HeadNotReached);
    expect(err).toMatchObject({ expected: 12_000, received: 10_000 });
    expect(head.ended()).toBe(false);
  });

  it("rejects with the source's own error", async () => {
    const source = new PassThrough();
    const boom = new Error('client went away');
    const split = splitHead(source, collector().sink, 5_000, new AbortController().signal);
    source.write(data.subarray(0, 1_000));
    source.destroy(boom);
    await expect(split).rejects.toBe(boom);
  });

  it('honours back-pressure: reads no further while the head is not consumed', async () => {
    const source = chunked(data, 1_000);
    const head = new PassThrough({ highWaterMark: 2_000 }); // nobody reads it
    const split = splitHead(source, head, 9_000, new AbortController().signal);
    await new Promise((r) => setTimeout(r, 20));
    expect(head.readableLength).toBeLessThanOrEqual(4_000); // one chunk past each side's mark, no more
    const rest: Buffer[] = [];
    head.on('data', (c: Buffer) => rest.push(c));
    expect((await split).equals(data.subarray(9_000))).toBe(true);
    expect(Buffer.concat(rest).equals(data.subarray(0, 9_000))).toBe(true);
  });

  it('stops when its signal aborts while the head is waiting to drain (a failed consumer)', async () => {
    const head = new PassThrough({ highWaterMark: 1_000 });
    const stop = new AbortController();
    const split = splitHead(chunked(data, 2_000), head, 9_000, stop.signal);
    await new Promise((r) => setTimeout(r, 10));
    stop.abort(new Error('S3 refused the part'));
    await expect(split).rejects.toThrow();
  });
});
