// The production start-up helpers (npm run start:api / start:worker) against the suite's servers.
import { GetBucketVersioningCommand, GetObjectLockConfigurationCommand, S3Client } from '@aws-sdk/client-s3';
import { Connection } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBucket } from '../../../integrations/docstore/bucket';
import { SEARCH_ATTRIBUTE_NAMES } from '../../../workflows/search-attributes';
import { ensureSearchAttributes } from '../../../workers/search-attributes';
import { servers } from '../../support/servers';

const KEYWORD = 2;

describe('start-up helpers', () => {
  let s3: S3Client;
  let connection: Connection;

  beforeAll(async () => {
    const target = servers().s3;
    s3 = new S3Client({
      endpoint: target.endpoint,
      region: target.region,
      forcePathStyle: true,
      credentials: { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey },
    });
    connection = await Connection.connect({ address: servers().temporalAddress });
  });

  afterAll(async () => {
    s3?.destroy();
    await connection?.close();
  });

  it('ensureBucket creates a missing bucket with object lock and versioning, and is a no-op the second time', async () => {
    const bucket = `startup-${randomUUID().slice(0, 8)}`;
    await ensureBucket(s3, bucket);
    await ensureBucket(s3, bucket);
    const versioning = await s3.send(new GetBucketVersioningCommand({ Bucket: bucket }));
    const lock = await s3.send(new GetObjectLockConfigurationCommand({ Bucket: bucket }));
    expect(versioning.Status).toBe('Enabled');
    expect(lock.ObjectLockConfiguration?.ObjectLockEnabled).toBe('Enabled');
  });

  it('ensureSearchAttributes leaves every platform search attribute registered as Keyword, repeatably', async () => {
    await ensureSearchAttributes(connection, 'default');
    await ensureSearchAttributes(connection, 'default');
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: 'default' });
    for (const name of SEARCH_ATTRIBUTE_NAMES) expect(customAttributes?.[name]).toBe(KEYWORD);
  });
});
