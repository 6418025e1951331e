// The worker process's metrics listener: our platform_* families and the Temporal SDK's own worker
// metrics (its runtime's Prometheus exporter, read on loopback) in one scrape.
import pino from 'pino';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../../workers/metrics-server';
import { connectRuntime, type Runtime } from '../../../workers/runtime';
import { startWorkerProcess, type RunningWorker } from '../../../workers/worker-process';
import { testSettings } from '../../support/app';
import { createTestDatabase, type TestDatabase } from '../../support/db';
import { scrape, value } from '../../support/metrics';
import { servers } from '../../support/servers';

const TOKEN = 'worker-scrape-token-0123456789';

describe('worker process metrics', () => {
  let db: TestDatabase;
  let runtime: Runtime;
  let worker: RunningWorker;

  beforeAll(async () => {
    db = await createTestDatabase();
    const { temporalAddress, s3 } = servers();
    const settings = testSettings({
      'metrics.port': await freeLoopbackPort(),
      'metrics.host': '127.0.0.1',
      'metrics.token': TOKEN,
      'dispatcher.enabled': false,
      'temporal.task-queue': `tq-${randomBytes(5).toString('hex')}`,
      's3.region': s3.region,
    });
    const logger = pino({ level: 'silent' });
    runtime = await connectRuntime(settings, { databaseUrl: db.url, temporalAddress, s3 }, logger);
    worker = await startWorkerProcess(settings, runtime, temporalAddress, logger);
  });
  afterAll(async () => {
    await worker?.stop();
    await runtime?.close();
    await db?.drop();
  });

  it('serves platform_* and the Temporal SDK worker metrics on one guarded listener', async () => {
    expect(worker.metrics).toBeDefined();
    expect((await fetch(worker.metrics!.url)).status).toBe(401);
    const s = await scrape(worker.metrics!.url, TOKEN);
    expect(s.some((x) => x.name === 'platform_db_pool_size')).toBe(true);
    // Task slots of this worker, as the SDK reports them once its pollers run.
    const slots = await (async () => {
      for (let i = 0; i < 50; i++) {
        const now = await scrape(worker.metrics!.url, TOKEN);
        const available = value(now, 'temporal_worker_task_slots_available');
        if (available > 0) return now;
        await new Promise((r) => setTimeout(r, 200));
      }
      return s;
    })();
    expect(value(slots, 'temporal_worker_task_slots_available')).toBeGreaterThan(0);
    expect(slots.some((x) => x.name.startsWith('temporal_') && x.name.endsWith('_total'))).toBe(true);
  });
});
