// Splits a byte stream whose first `headBytes` are known to exist: those bytes flow on through
// `head` (with back-pressure, never collected), and what follows is collected and returned as
// the tail. The caller bounds the tail (it knows how many bytes can follow the head), so only
// the head has to stream.
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';

/** The source ended before the head was complete: the promised length was not there. */
export class HeadNotReached extends Error {
  override readonly name = 'HeadNotReached';
  constructor(
    readonly expected: number,
    readonly received: number,
  ) {
    super(`the stream ended after ${received} of the ${expected} bytes promised for its head`);
  }
}

/**
 * Pumps `source` into `head` until `headBytes` have passed, then ends `head` and collects the
 * rest. Rejects with HeadNotReached when the source ends early, or with the source's error;
 * `signal` stops the pump (a failed consumer of `head` must not leave it waiting for drain).
 */
export async function splitHead(source: Readable, head: Writable, headBytes: number, signal: AbortSignal): Promise<Buffer> {
  const tail: Buffer[] = [];
  let sent = 0;
  if (headBytes === 0) head.end();
  for await (const chunk of source as AsyncIterable<Buffer>) {
    signal.throwIfAborted();
    if (sent === headBytes) {
      tail.push(chunk);
      continue;
    }
    const take = Math.min(headBytes - sent, chunk.length);
    sent += take;
    if (take < chunk.length) tail.push(chunk.subarray(take));
    const more = head.write(take === chunk.length ? chunk : chunk.subarray(0, take));
    if (sent === headBytes) head.end();
    else if (!more) await once(head, 'drain', { signal });
  }
  if (sent < headBytes) throw new HeadNotReached(headBytes, sent);
  return Buffer.concat(tail);
}
