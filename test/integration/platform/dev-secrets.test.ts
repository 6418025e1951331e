// The production entry points never generate secrets: started without them against the suite's
// servers, they leave the data directory alone and keep failing closed.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFreePort } from '../../../workers/embedded/child-process';
import { createTestDatabase, type TestDatabase } from '../../support/db';
import { startEntryPoint, type EntryPoint } from '../../support/entry-point';
import { servers } from '../../support/servers';

describe('production entry points without the generated secrets', () => {
  let db: TestDatabase;
  let dataDir: string;
  let api: EntryPoint | undefined;
  let worker: EntryPoint | undefined;
  let base: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'prod-start-'));
    const { temporalAddress, s3 } = servers();
    const port = await getFreePort();
    base = `http://127.0.0.1:${port}`;
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_TASK_QUEUE: `tq-prod-start-${port}`,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      PORT: String(port),
      LOG_LEVEL: 'info',
    };
    api = startEntryPoint('workers/api.ts', env);
    worker = startEntryPoint('workers/worker.ts', env);
    await Promise.all([api.waitFor(`${base}/health/ready`, 120_000), worker.waitForOutput('worker started', 120_000)]);
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await db?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('start:api and start:worker write nothing into the data directory and warn of no generated setting', async () => {
    expect(await readdir(dataDir)).toEqual([]);
    for (const process of [api!, worker!]) expect(process.output()).not.toMatch(/development value/);
  });

  it('start:api keeps the internal routes closed (403 internal-api-disabled), whatever key is sent', async () => {
    for (const key of ['', 'guess']) {
      const res = await fetch(`${base}/api/internal/documents/authorize`, {
        method: 'POST',
        headers: { 'X-Internal-Key': key, 'X-Tenant-Id': 'prod-start', 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('internal-api-disabled');
    }
  });

  it('start:api refuses to store a secret without a master key (503 secrets-unavailable)', async () => {
    const owner = { 'X-User-Id': 'ann', 'X-Tenant-Id': 'prod-start', 'Content-Type': 'application/json' };
    const steps: Array<[string, string, unknown?]> = [
      ['POST', '/api/tenants', { id: 'prod-start', name: 'Production start' }],
      ['PUT', '/api/tenants/prod-start/capabilities/PHONE'],
      ['PUT', '/api/tenants/prod-start/users/ann/capabilities/PHONE', { level: 'read-write' }],
    ];
    for (const [method, path, body] of steps) {
      const res = await fetch(`${base}${path}`, { method, headers: owner, body: body ? JSON.stringify(body) : undefined });
      expect(res.status, await res.text()).toBeLessThan(300);
    }
    const res = await fetch(`${base}/api/phone-settings/api-key`, { method: 'POST', headers: owner, body: JSON.stringify({ apiKey: 'sk-live-x' }) });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { code: string }).code).toBe('secrets-unavailable');
  });
});
