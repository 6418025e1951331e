import { S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBucket } from '../../integrations/docstore/bucket';
import { loadSettings } from '../../workers/config';
import { getFreePort } from '../../workers/embedded/child-process';
import { startSeaweed } from '../../workers/embedded/seaweed';

export interface BenchS3 {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  stop(): Promise<void>;
}

/**
 * S3 for one benchmark: S3_ENDPOINT (with its credentials) when set, otherwise an embedded
 * SeaweedFS in a temp dir removed afterwards. The bucket has versioning and object lock.
 */
export async function startBenchS3(bucket = `bench-docs-${Date.now().toString(36)}`): Promise<BenchS3> {
  const settings = loadSettings();
  let target: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
  let stopServer = async () => {};
  let dir: string | undefined;
  if (settings['s3.endpoint']) {
    target = {
      endpoint: settings['s3.endpoint'],
      region: settings['s3.region'],
      accessKeyId: settings['s3.access-key-id'] ?? '',
      secretAccessKey: settings['s3.secret-access-key'] ?? '',
    };
  } else {
    dir = await mkdtemp(join(tmpdir(), 'platform-bench-s3-'));
    const s = await startSeaweed({ dataDir: join(dir, 's3'), s3Port: await getFreePort() });
    target = { endpoint: s.endpoint, region: s.region, accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey };
    stopServer = s.stop;
  }
  const admin = new S3Client({
    endpoint: target.endpoint,
    region: target.region,
    forcePathStyle: true,
    credentials: { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey },
  });
  await ensureBucket(admin, bucket);
  admin.destroy();
  return {
    ...target,
    bucket,
    async stop() {
      await stopServer();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}
