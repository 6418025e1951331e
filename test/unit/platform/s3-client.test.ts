import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../../workers/config';
import { createS3Client } from '../../../workers/runtime';

const endpoint = { endpoint: 'http://127.0.0.1:9', accessKeyId: 'a', secretAccessKey: 'b' };

describe('createS3Client', () => {
  it.each([
    [undefined, 'WHEN_REQUIRED'],
    ['when-supported', 'WHEN_SUPPORTED'],
    ['when-required', 'WHEN_REQUIRED'],
  ])('s3.request-checksums=%s gives the client %s', async (value, expected) => {
    const client = createS3Client(loadSettings(value ? { S3_REQUEST_CHECKSUMS: value } : {}), endpoint);
    expect(await client.config.requestChecksumCalculation()).toBe(expected);
    client.destroy();
  });

  it('refuses any other value at start-up', () => {
    expect(() => loadSettings({ S3_REQUEST_CHECKSUMS: 'never' })).toThrow(/S3_REQUEST_CHECKSUMS/);
  });
});
