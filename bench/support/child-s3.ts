// The S3 client of a bench's child server: the node's own client (workers/runtime.ts) on the
// endpoint and credentials its environment names (S3_ENDPOINT, S3_ACCESS_KEY_ID, ...).
import type { Settings } from '../../domain/settings';
import { createS3Client } from '../../workers/runtime';

export const childS3Client = (settings: Settings) =>
  createS3Client(settings, {
    endpoint: settings['s3.endpoint']!,
    accessKeyId: settings['s3.access-key-id'] ?? '',
    secretAccessKey: settings['s3.secret-access-key'] ?? '',
  });
