// clamd client over TCP (INSTREAM). Every outcome other than an explicit
// "stream: OK" is either an infected verdict or a thrown ClamdError, so a
// caller that only marks a file READY on { verdict: 'clean' } fails closed.
import net from 'node:net';
import type { Readable } from 'node:stream';

export type ScanResult = { verdict: 'clean' } | { verdict: 'infected'; signature: string };

export type ClamdErrorKind = 'timeout' | 'connection' | 'limit' | 'protocol';

export class ClamdError extends Error {
  override readonly name = 'ClamdError';
  constructor(
    readonly kind: ClamdErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface ClamdClientOptions {
  host: string;
  port: number;
  /** Deadline for one whole operation (connect, send, scan, reply). */
  timeoutMs?: number;
  /** Largest INSTREAM chunk sent; bigger input chunks are split. */
  chunkBytes?: number;
}

export interface ClamdClient {
  scanStream(source: Readable | AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<ScanResult>;
  scanBuffer(data: Uint8Array): Promise<ScanResult>;
  /** Resolves when clamd answers PONG; throws ClamdError otherwise. */
  ping(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_CHUNK_BYTES = 64 * 1024;
// A reply is one short line; anything longer is not clamd talking.
const MAX_REPLY_BYTES = 64 * 1024;
const TERMINATOR = Buffer.alloc(4);

export function createClamdClient(options: ClamdClientOptions): ClamdClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  if (!Number.isInteger(chunkBytes) || chunkBytes <= 0) {
    throw new RangeError('chunkBytes must be a positive integer');
  }
  const connect = () => openSession(options.host, options.port, timeoutMs);

  async function scanStream(source: Readable | AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<ScanResult> {
    return withSession(connect, async (session) => {
      await session.write(Buffer.from('zINSTREAM\0', 'latin1'));
      outer: for await (const raw of source as AsyncIterable<Uint8Array | string> | Iterable<Uint8Array>) {
        const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
        for (let at = 0; at < chunk.byteLength; at += chunkBytes) {
          // clamd answers early (and closes) when StreamMaxLength is hit.
          if (session.replied()) break outer;
          const slice = chunk.subarray(at, at + chunkBytes);
          const header = Buffer.allocUnsafe(4);
          header.writeUInt32BE(slice.byteLength, 0);
          await session.write(Buffer.concat([header, slice]));
        }
      }
      if (!session.replied()) await session.write(TERMINATOR);
      return parseScanReply(await session.reply);
    });
  }

  return {
    scanStream,
    scanBuffer: (data) => scanStream([data]),
    async ping() {
      await withSession(connect, async (session) => {
        await session.write(Buffer.from('zPING\0', 'latin1'));
        const reply = await session.reply;
        if (reply !== 'PONG') throw new ClamdError('protocol', `unexpected PING reply: ${quote(reply)}`);
      });
    },
  };
}

export function parseScanReply(reply: string): ScanResult {
  if (reply === 'stream: OK') return { verdict: 'clean' };
  const found = /^stream: (.+) FOUND$/.exec(reply);
  if (found?.[1]) return { verdict: 'infected', signature: found[1] };
  if (/size limit exceeded/i.test(reply)) {
    throw new ClamdError('limit', `clamd refused the stream: ${quote(reply)}`);
  }
  throw new ClamdError('protocol', `clamd could not scan the stream: ${quote(reply)}`);
}

interface Session {
  write(data: Uint8Array): Promise<void>;
  /** The NUL-terminated reply (NUL stripped), or the bytes received before close, marked as cut off. */
  reply: Promise<string>;
  replied(): boolean;
  /** Rejects on connection failure or deadline; never resolves. */
  failure: Promise<never>;
  close(): void;
}

async function withSession<T>(
  connect: () => Session,
  run: (session: Session) => Promise<T>,
): Promise<T> {
  const session = connect();
  const work = run(session);
  // Whichever loses the race must not surface as an unhandled rejection.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, session.failure]);
  } finally {
    session.close();
  }
}

function openSession(host: string, port: number, timeoutMs: number): Session {
  const socket = net.connect({ host, port });
  socket.setNoDelay(true);
  const received: Buffer[] = [];
  let receivedBytes = 0;
  let replyText: string | undefined;
  let failed: ClamdError | undefined;
  // Writes are sequential, so at most one is ever parked on back-pressure.
  let wake: (() => void) | undefined;

  let resolveReply!: (text: string) => void;
  let rejectReply!: (err: ClamdError) => void;
  const reply = new Promise<string>((res, rej) => {
    resolveReply = res;
    rejectReply = rej;
  });
  reply.catch(() => undefined);
  let rejectFailure!: (err: ClamdError) => void;
  const failure = new Promise<never>((_, rej) => {
    rejectFailure = rej;
  });
  failure.catch(() => undefined);

  const settleReply = (text: string, complete: boolean) => {
    if (replyText !== undefined) return;
    replyText = text.replace(/\n+$/, '');
    // An unterminated "OK" could be a cut-off line: never let it read as clean.
    resolveReply(complete ? replyText : `${replyText} (connection closed before end of reply)`);
    wake?.();
  };
  const fail = (err: ClamdError) => {
    if (failed) return;
    failed = err;
    rejectReply(err);
    rejectFailure(err);
    socket.destroy();
    wake?.();
  };

  const timer = setTimeout(() => fail(new ClamdError('timeout', `clamd did not answer within ${timeoutMs} ms`)), timeoutMs);
  timer.unref?.();

  socket.on('data', (data: Buffer) => {
    if (replyText !== undefined) return;
    received.push(data);
    receivedBytes += data.byteLength;
    const all = Buffer.concat(received);
    const nul = all.indexOf(0);
    if (nul >= 0) settleReply(all.subarray(0, nul).toString('utf8'), true);
    else if (receivedBytes > MAX_REPLY_BYTES) fail(new ClamdError('protocol', 'clamd reply too long'));
  });
  const onClosed = (err?: Error) => {
    if (replyText !== undefined || failed) return;
    // clamd may write its verdict (e.g. the size-limit ERROR) and close or
    // reset while we are still sending; a partial line is still its answer.
    if (receivedBytes > 0) {
      settleReply(Buffer.concat(received).toString('utf8'), false);
      return;
    }
    fail(
      new ClamdError('connection', `clamd connection to ${host}:${port} ${err ? `failed: ${err.message}` : 'closed without a reply'}`, {
        cause: err,
      }),
    );
  };
  socket.on('drain', () => wake?.());
  socket.on('error', (err) => onClosed(err));
  socket.on('close', () => onClosed());
  socket.on('end', () => onClosed());

  return {
    reply,
    failure,
    replied: () => replyText !== undefined,
    async write(data) {
      if (failed) throw failed;
      if (replyText !== undefined) return;
      if (socket.write(data)) return;
      // Back-pressure: wait for the kernel buffer to drain, or for clamd to
      // answer, close or time out, whichever comes first.
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
      if (failed) throw failed;
    },
    close() {
      clearTimeout(timer);
      socket.destroy();
    },
  };
}

function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}
