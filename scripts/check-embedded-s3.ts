// The S3 semantics the documents capability relies on, checked against embedded SeaweedFS.
import { createHash, randomBytes } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  GetObjectLegalHoldCommand,
  GetObjectLockConfigurationCommand,
  GetObjectRetentionCommand,
  GetBucketVersioningCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  PutObjectRetentionCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ensureBucket } from '../integrations/docstore/bucket.js';
import type { SeaweedServer } from '../workers/embedded/index.js';
import { assert, check } from './check-harness';

export async function expectS3Error(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    return `${e.name} (${e.$metadata?.httpStatusCode})`;
  }
  throw new Error('expected the request to be refused, it succeeded');
}

export function s3Client(s3: SeaweedServer): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
}

export async function checkS3(server: SeaweedServer): Promise<{ bucket: string; key: string; versionId: string; body: string }> {
  const s3 = s3Client(server);
  const bucket = 'embedded-check';
  const key = 'doc.txt';
  const body = 'hello object lock world';
  const inOneDay = () => new Date(Date.now() + 24 * 3600 * 1000);
  let v1 = '', v2 = '', v3 = '';

  await check('s3: ensureBucket twice (create with object lock, then no-op)', async () => {
    await ensureBucket(s3, bucket);
    await ensureBucket(s3, bucket);
    const versioning = await s3.send(new GetBucketVersioningCommand({ Bucket: bucket }));
    const lock = await s3.send(new GetObjectLockConfigurationCommand({ Bucket: bucket }));
    assert(versioning.Status === 'Enabled', `versioning ${versioning.Status}`);
    assert(lock.ObjectLockConfiguration?.ObjectLockEnabled === 'Enabled', 'object lock not enabled');
    return 'versioning Enabled, ObjectLockEnabled';
  });
  await check('s3: PutObject returns a VersionId', async () => {
    const put = async (text: string) => (await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: text }))).VersionId;
    v1 = (await put(body)) ?? '';
    v2 = (await put(`${body} v2`)) ?? '';
    v3 = (await put(`${body} v3`)) ?? '';
    assert(v1 && v2 && v3 && new Set([v1, v2, v3]).size === 3, `version ids ${v1}, ${v2}, ${v3}`);
    return `e.g. ${v1}`;
  });
  await check('s3: PutObjectRetention COMPLIANCE on a VersionId, read back', async () => {
    const until = inOneDay();
    await s3.send(new PutObjectRetentionCommand({ Bucket: bucket, Key: key, VersionId: v1, Retention: { Mode: 'COMPLIANCE', RetainUntilDate: until } }));
    const { Retention } = await s3.send(new GetObjectRetentionCommand({ Bucket: bucket, Key: key, VersionId: v1 }));
    assert(Retention?.Mode === 'COMPLIANCE', `mode ${Retention?.Mode}`);
    assert(Math.abs((Retention?.RetainUntilDate?.getTime() ?? 0) - until.getTime()) < 1000, `date ${Retention?.RetainUntilDate?.toISOString()}`);
    return `until ${Retention?.RetainUntilDate?.toISOString()}`;
  });
  await check('s3: PutObjectRetention GOVERNANCE on a VersionId, read back', async () => {
    await s3.send(new PutObjectRetentionCommand({ Bucket: bucket, Key: key, VersionId: v2, Retention: { Mode: 'GOVERNANCE', RetainUntilDate: inOneDay() } }));
    const { Retention } = await s3.send(new GetObjectRetentionCommand({ Bucket: bucket, Key: key, VersionId: v2 }));
    assert(Retention?.Mode === 'GOVERNANCE', `mode ${Retention?.Mode}`);
  });
  await check('s3: retention of one version does not leak to another', async () => {
    const err = await expectS3Error(s3.send(new GetObjectRetentionCommand({ Bucket: bucket, Key: key, VersionId: v3 })));
    return `GetObjectRetention on unretained version: ${err}`;
  }, false);
  await check('s3: HeadObject with VersionId reports the lock', async () => {
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key, VersionId: v1 }));
    assert(head.ObjectLockMode === 'COMPLIANCE', `ObjectLockMode ${head.ObjectLockMode}`);
    return `ObjectLockMode ${head.ObjectLockMode}, until ${head.ObjectLockRetainUntilDate?.toISOString()}`;
  }, false);
  await check('s3: ranged GetObject with a VersionId', async () => {
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, VersionId: v1, Range: 'bytes=6-11' }));
    const text = await got.Body!.transformToString();
    assert(text === body.slice(6, 12), `got "${text}"`);
    assert(got.$metadata.httpStatusCode === 206, `status ${got.$metadata.httpStatusCode}`);
    return `206 "${text}", ${got.ContentRange}`;
  });
  await check('s3: DeleteObject by VersionId of a COMPLIANCE version is refused', async () => {
    const err = await expectS3Error(s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, VersionId: v1 })));
    await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key, VersionId: v1 }));
    return err;
  });
  await check('s3: shortening COMPLIANCE retention is refused', async () => {
    const err = await expectS3Error(
      s3.send(new PutObjectRetentionCommand({ Bucket: bucket, Key: key, VersionId: v1, Retention: { Mode: 'COMPLIANCE', RetainUntilDate: new Date(Date.now() + 3600_000) } })),
    );
    return err;
  }, false);
  await check('s3: DeleteObject by VersionId of a GOVERNANCE version without bypass is refused', async () => {
    return expectS3Error(s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, VersionId: v2 })));
  }, false);
  await check('s3: DeleteObject without VersionId on a retained object makes a delete marker', async () => {
    const res = await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    assert(res.DeleteMarker === true, `DeleteMarker ${res.DeleteMarker}`);
    const err = await expectS3Error(s3.send(new GetObjectCommand({ Bucket: bucket, Key: key })));
    const old = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, VersionId: v1 }));
    assert((await old.Body!.transformToString()) === body, 'old version unreadable');
    return `marker ${res.VersionId}; plain GET then ${err}; GET by VersionId still works`;
  });
  await check('s3: DeleteObject by VersionId of a never-retained version purges it', async () => {
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, VersionId: v3 }));
    const { Versions } = await s3.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: key }));
    assert(!Versions?.some((v) => v.VersionId === v3), 'version still listed');
    const err = await expectS3Error(s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, VersionId: v3 })));
    return `gone from ListObjectVersions; GET by VersionId ${err}`;
  });
  await check('s3: DeleteObject by VersionId of a GOVERNANCE version with BypassGovernanceRetention', async () => {
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, VersionId: v2, BypassGovernanceRetention: true }));
    const { Versions } = await s3.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: key }));
    assert(!Versions?.some((v) => v.VersionId === v2), 'version still listed');
  }, false);
  await check('s3: expired COMPLIANCE retention allows deleting the version', async () => {
    const { VersionId } = await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'short.txt', Body: 'x' }));
    await s3.send(new PutObjectRetentionCommand({ Bucket: bucket, Key: 'short.txt', VersionId, Retention: { Mode: 'COMPLIANCE', RetainUntilDate: new Date(Date.now() + 2000) } }));
    await new Promise((r) => setTimeout(r, 3000));
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'short.txt', VersionId }));
  }, false);
  await check('s3: PutObject with ObjectLockMode/RetainUntilDate headers', async () => {
    const { VersionId } = await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'locked-at-put.txt', Body: 'x', ObjectLockMode: 'COMPLIANCE', ObjectLockRetainUntilDate: inOneDay() }),
    );
    const { Retention } = await s3.send(new GetObjectRetentionCommand({ Bucket: bucket, Key: 'locked-at-put.txt', VersionId }));
    assert(Retention?.Mode === 'COMPLIANCE', `mode ${Retention?.Mode}`);
  }, false);
  await check('s3: legal hold on a VersionId blocks its deletion', async () => {
    const { VersionId } = await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'held.txt', Body: 'x' }));
    await s3.send(new PutObjectLegalHoldCommand({ Bucket: bucket, Key: 'held.txt', VersionId, LegalHold: { Status: 'ON' } }));
    const hold = await s3.send(new GetObjectLegalHoldCommand({ Bucket: bucket, Key: 'held.txt', VersionId }));
    assert(hold.LegalHold?.Status === 'ON', `hold ${hold.LegalHold?.Status}`);
    const err = await expectS3Error(s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'held.txt', VersionId })));
    await s3.send(new PutObjectLegalHoldCommand({ Bucket: bucket, Key: 'held.txt', VersionId, LegalHold: { Status: 'OFF' } }));
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'held.txt', VersionId }));
    return `held delete ${err}; released delete ok`;
  }, false);
  await check('s3: multipart upload (lib-storage Upload, 3 parts) with ranged read across a part boundary', async () => {
    const data = randomBytes(11 * 1024 * 1024);
    const upload = new Upload({ client: s3, params: { Bucket: bucket, Key: 'big.bin', Body: data }, partSize: 5 * 1024 * 1024, queueSize: 2 });
    const done = await upload.done();
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'big.bin', VersionId: done.VersionId }));
    const bytes = Buffer.from(await got.Body!.transformToByteArray());
    assert(sha(bytes) === sha(data), 'content differs');
    const start = 5 * 1024 * 1024 - 10;
    const ranged = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'big.bin', VersionId: done.VersionId, Range: `bytes=${start}-${start + 19}` }));
    const slice = Buffer.from(await ranged.Body!.transformToByteArray());
    assert(slice.equals(data.subarray(start, start + 20)), 'ranged bytes differ');
    await s3.send(new PutObjectRetentionCommand({ Bucket: bucket, Key: 'big.bin', VersionId: done.VersionId, Retention: { Mode: 'GOVERNANCE', RetainUntilDate: inOneDay() } }));
    return `VersionId ${done.VersionId ?? '(none returned)'}, ETag ${done.ETag}, retention settable`;
  });
  await check('s3: unsigned request is refused', async () => {
    const response = await fetch(`${server.endpoint}/${bucket}/${key}?versionId=${v1}`);
    assert(response.status === 403, `status ${response.status}`);
    return `HTTP ${response.status}`;
  });
  s3.destroy();
  return { bucket, key, versionId: v1, body };
}

function sha(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
