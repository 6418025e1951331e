// Sits between the multipart file stream and the S3 upload: hashes and counts
// bytes as they pass and fails the pipeline the moment the cap is crossed,
// before the offending chunk is forwarded, so nothing over the cap is stored
// and the caller can abort the multipart upload. A node:stream Transform
// because busboy yields a Readable and @aws-sdk/lib-storage takes one as Body.
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

export class SizeLimitExceeded extends Error {
  override readonly name = 'SizeLimitExceeded';
  constructor(readonly limitBytes: number) {
    super(`upload exceeds the limit of ${limitBytes} bytes`);
  }
}

export interface ByteCount {
  sizeBytes: number;
  /** Lower-case hex SHA-256 of every byte that passed. */
  sha256: string;
}

export class ByteCounter extends Transform {
  readonly maxBytes: number;
  #bytes = 0;
  #hash: Hash = createHash('sha256');
  #sha256: string | undefined;

  constructor(options: { maxBytes: number }) {
    super();
    if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes < 0) {
      throw new RangeError('maxBytes must be a non-negative integer');
    }
    this.maxBytes = options.maxBytes;
  }

  /** Bytes seen so far (including a rejected chunk, once the cap is crossed). */
  get bytesSeen(): number {
    return this.#bytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#bytes += chunk.length;
    if (this.#bytes > this.maxBytes) {
      callback(new SizeLimitExceeded(this.maxBytes));
      return;
    }
    this.#hash.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.#sha256 = this.#hash.digest('hex');
    callback();
  }

  /** Size and hash; only valid once the stream has ended (throws before). */
  result(): ByteCount {
    if (this.#sha256 === undefined) throw new Error('ByteCounter.result() called before the stream ended');
    return { sizeBytes: this.#bytes, sha256: this.#sha256 };
  }
}
