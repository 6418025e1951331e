// A multipart upload whose first part streams straight from the request into S3. lib-storage's
// Upload cannot do this: it collects every 5 MiB part in memory before sending it and reads no
// further while its parts are in flight, so a streamed body stalls between parts (measured on
// the 2-core bench: lib-storage from a request 0.58 of a direct PutObject, one streamed request
// with a known length 0.85). When the caller can promise `headBytes` (from the request's
// Content-Length), the head goes as part 1 with that length while it arrives, and only the
// small rest (what follows, up to the end of the file) is collected for part 2.
import {
  AbortMultipartUploadCommand,
  type ChecksumAlgorithm,
  CompleteMultipartUploadCommand,
  type CompletedPart,
  CreateMultipartUploadCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { PassThrough, type Readable } from 'node:stream';
import { splitHead } from './head-split';

/** S3 refuses a non-final part below 5 MiB, and any part above 5 GiB. */
export const MIN_STREAMED_HEAD_BYTES = 5 * 1024 * 1024;
export const MAX_PART_BYTES = 5 * 1024 ** 3;
/** A few network reads of slack between the request and the S3 request. */
const HEAD_HIGH_WATER_MARK = 256 * 1024;

export interface StreamedUploadParams {
  Bucket: string;
  Key: string;
  ContentType: string;
  ServerSideEncryption?: 'AES256';
}

/**
 * Uploads `body`, of which at least `headBytes` (5 MiB to 5 GiB) are known to exist. On any
 * failure (the body's error, S3's, or a body shorter than promised) the multipart upload is
 * aborted and the first cause is thrown.
 */
export async function streamedUpload(
  s3: S3Client,
  params: StreamedUploadParams,
  body: Readable,
  headBytes: number,
): Promise<{ VersionId?: string }> {
  if (headBytes < MIN_STREAMED_HEAD_BYTES || headBytes > MAX_PART_BYTES) {
    throw new RangeError(`a streamed head must be 5 MiB to 5 GiB, not ${headBytes} bytes`);
  }
  // Nothing consumes the body while S3 creates the upload: an error meanwhile (the client went
  // away) would otherwise be an uncaught exception. The stream stays errored, so splitHead's
  // iterator still throws it and the upload is aborted as for any body error.
  body.on('error', () => {});
  // Same checksum choice as lib-storage: CRC32 per part when the client computes checksums.
  const checksum: ChecksumAlgorithm | undefined =
    (await s3.config.requestChecksumCalculation()) === 'WHEN_SUPPORTED' ? 'CRC32' : undefined;
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ ...params, ChecksumAlgorithm: checksum }));
  const where = { Bucket: params.Bucket, Key: params.Key, UploadId };
  try {
    const parts: CompletedPart[] = [];
    const part = async (PartNumber: number, Body: Readable | Buffer, ContentLength: number, abortSignal?: AbortSignal) => {
      const out = await s3.send(new UploadPartCommand({ ...where, PartNumber, Body, ContentLength }), { abortSignal });
      parts.push({ PartNumber, ETag: out.ETag, ChecksumCRC32: out.ChecksumCRC32 });
    };

    const stop = new AbortController();
    const head = new PassThrough({ highWaterMark: HEAD_HIGH_WATER_MARK });
    let cause: { error: unknown } | undefined;
    // The first failure is the cause; it stops the other side, whose own error is only its echo.
    const failed = (error: unknown) => {
      if (!cause) {
        cause = { error };
        stop.abort();
        head.destroy();
        body.destroy();
      }
      throw error;
    };
    // The rest goes as part 2 as soon as the request has ended, while S3 still settles part 1.
    await Promise.allSettled([
      part(1, head, headBytes, stop.signal).catch(failed),
      splitHead(body, head, headBytes, stop.signal)
        .then((rest) => (rest.length > 0 ? part(2, rest, rest.length, stop.signal) : undefined))
        .catch(failed),
    ]);
    if (cause) throw cause.error;
    parts.sort((a, b) => a.PartNumber! - b.PartNumber!);
    const out = await s3.send(new CompleteMultipartUploadCommand({ ...where, MultipartUpload: { Parts: parts } }));
    return { VersionId: out.VersionId };
  } catch (err) {
    await s3.send(new AbortMultipartUploadCommand(where)).catch(() => {});
    throw err;
  }
}
