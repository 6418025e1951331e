// Start-up of every node that stores documents: the bucket exists with object lock, whoever
// provides S3 (the embedded SeaweedFS in development, a real store in production).
import {
  CreateBucketCommand,
  GetBucketVersioningCommand,
  HeadBucketCommand,
  PutBucketVersioningCommand,
  type S3Client,
} from '@aws-sdk/client-s3';

/**
 * Creates the bucket with object lock (which implies versioning) when it is
 * missing, and makes sure versioning is Enabled. Idempotent and safe to race.
 * A bucket that already exists WITHOUT object lock keeps lacking it: S3 cannot
 * add object lock to an existing bucket.
 */
export async function ensureBucket(s3: S3Client, bucket: string): Promise<void> {
  if (!(await bucketExists(s3, bucket))) {
    try {
      await s3.send(new CreateBucketCommand({ Bucket: bucket, ObjectLockEnabledForBucket: true }));
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw err;
    }
  }
  const { Status } = await s3.send(new GetBucketVersioningCommand({ Bucket: bucket }));
  if (Status !== 'Enabled') {
    await s3.send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }));
  }
}

async function bucketExists(s3: S3Client, bucket: string): Promise<boolean> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
    return true;
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'NotFound' || e.name === 'NoSuchBucket' || e.$metadata?.httpStatusCode === 404) return false;
    throw err;
  }
}
