// The documents' bytes in S3: streamed multipart upload, version-pinned reads, object-lock
// retention on one version, and the two delete flavours. Keys given to this module are
// PHYSICAL (`physicalKey` of domain/documents/storage-key.ts); it never builds them.
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectVersionsCommand,
  PutObjectRetentionCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import { s3RangeHeader } from '../../domain/documents/range';
import type { RetentionMode } from '../../domain/documents/retention';
import type { Settings } from '../../domain/settings';
import { MAX_PART_BYTES, MIN_STREAMED_HEAD_BYTES, streamedUpload } from './streamed-upload';

/** 5 MiB is S3's smallest part; two in flight keep 8 parallel 25 MiB uploads well inside the memory goal. */
const PART_BYTES = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

export interface ObjectStoreOptions {
  s3: S3Client;
  bucket: string;
  /** SSE-S3 on every stored object when 'AES256'. */
  sse: 'none' | 'AES256';
}

export interface StoredObject {
  versionId: string;
}

export interface ObjectRead {
  body: Readable;
}

/** The documents' object store under these settings; none without an S3 client. */
export function createObjectStore(settings: Settings, s3: S3Client | undefined): DocumentObjectStore | undefined {
  return s3 ? new DocumentObjectStore({ s3, bucket: settings['s3.bucket'], sse: settings['docstore.sse'] }) : undefined;
}

export class DocumentObjectStore {
  constructor(readonly o: ObjectStoreOptions) {}

  /**
   * Streams `body` into S3. When at least `knownMinBytes` are sure to come (5 MiB or more),
   * those bytes stream straight through as the first part (streamedUpload); otherwise — a small
   * file, or no Content-Length — lib-storage collects 5 MiB parts. When the body fails (size
   * cap, client gone), the multipart upload is aborted before this rejects, so nothing is kept.
   */
  async upload(key: string, body: Readable, contentType: string, knownMinBytes = 0): Promise<StoredObject> {
    const params = {
      Bucket: this.o.bucket,
      Key: key,
      ContentType: contentType,
      ...(this.o.sse === 'AES256' ? { ServerSideEncryption: 'AES256' as const } : {}),
    };
    const result =
      knownMinBytes >= MIN_STREAMED_HEAD_BYTES
        ? await streamedUpload(this.o.s3, params, body, Math.min(knownMinBytes, MAX_PART_BYTES))
        : await new Upload({
            client: this.o.s3,
            params: { ...params, Body: body },
            partSize: PART_BYTES,
            queueSize: QUEUE_SIZE,
            leavePartsOnError: false,
          }).done();
    if (!result.VersionId) throw new Error('the bucket did not return a version id: versioning must be enabled');
    return { versionId: result.VersionId };
  }

  /** One version, whole or a single byte range (inclusive bounds). */
  async read(key: string, versionId: string, range?: { start: number; end: number }): Promise<ObjectRead> {
    const out = await this.o.s3.send(
      new GetObjectCommand({
        Bucket: this.o.bucket,
        Key: key,
        VersionId: versionId,
        ...(range ? { Range: s3RangeHeader(range) } : {}),
      }),
    );
    if (!(out.Body instanceof Readable)) throw new Error('S3 returned a body that is not a Node stream');
    return { body: out.Body };
  }

  /** Object-lock retention on exactly this version (never a bucket default). */
  async retain(key: string, versionId: string, mode: RetentionMode, until: Date): Promise<void> {
    await this.o.s3.send(
      new PutObjectRetentionCommand({
        Bucket: this.o.bucket,
        Key: key,
        VersionId: versionId,
        Retention: { Mode: mode, RetainUntilDate: until },
      }),
    );
  }

  /** Retained objects: a plain delete, which only adds a delete marker; the locked version stays. */
  async hide(key: string): Promise<void> {
    await this.o.s3.send(new DeleteObjectCommand({ Bucket: this.o.bucket, Key: key }));
  }

  /** Never-retained objects: every version and delete marker of exactly this key. */
  async purge(key: string): Promise<number> {
    let removed = 0;
    let keyMarker: string | undefined;
    let versionIdMarker: string | undefined;
    for (;;) {
      const page = await this.o.s3.send(
        new ListObjectVersionsCommand({ Bucket: this.o.bucket, Prefix: key, KeyMarker: keyMarker, VersionIdMarker: versionIdMarker }),
      );
      // Prefix matching would also list `key-something`; only this exact key goes.
      const objects = [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])]
        .filter((v) => v.Key === key && v.VersionId)
        .map((v) => ({ Key: key, VersionId: v.VersionId! }));
      if (objects.length > 0) {
        const out = await this.o.s3.send(
          new DeleteObjectsCommand({ Bucket: this.o.bucket, Delete: { Objects: objects, Quiet: true } }),
        );
        if (out.Errors && out.Errors.length > 0) {
          throw new Error(`S3 refused to delete ${out.Errors.length} version(s): ${out.Errors[0]?.Code ?? 'unknown'}`);
        }
        removed += objects.length;
      }
      if (!page.IsTruncated) return removed;
      keyMarker = page.NextKeyMarker;
      versionIdMarker = page.NextVersionIdMarker;
    }
  }
}
