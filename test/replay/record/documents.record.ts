// Records the document processes for the replay corpus: a scan that failed at finalize, retried
// by the documentScan workflow (its first attempts find clamd unreachable, a later one reaches the
// real clamd of test/support/clamd.ts), and the retentionPurge as a dry run and a real run.
import { Context } from '@temporalio/activity';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getOutboxRow } from '../../../db/outbox';
import { createActivities } from '../../../workers/worker-activities';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { eventually } from '../../support/ceremony';
import { startClamd, type RunningClamd } from '../../support/clamd';
import { docApi, formFields, patterned, ResponseRecorder, seedDocTenant, testS3Client } from '../../support/documents';
import { startTestWorker, testDispatcher, type TestWorker } from '../../support/temporal';
import { saveHistory } from './save-history';

const s3 = testS3Client();
const logger = pino({ level: 'silent' });

describe('record: documentScan retried', () => {
  // Port 1: nothing listens there, so the scan at finalize is refused at once and the document stays PENDING.
  const ctx = useTestApp({
    'docstore.scan': 'clamav',
    'docstore.clamav-port': 1,
    'docstore.clamav-timeout-ms': 1500,
    'docstore.scan-retry-initial-ms': 200,
    'docstore.scan-retry-max-ms': 800,
    deps: { s3 },
  });
  const api = docApi(() => ctx.app, new ResponseRecorder(), INTERNAL_KEY);
  let dir: string;
  let clamd: RunningClamd;
  let worker: TestWorker;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'replay-clamd-'));
    clamd = await startClamd({ dir });
    const down = createActivities({ db: ctx.db.db, settings: ctx.settings, logger, s3 });
    const up = createActivities({ db: ctx.db.db, settings: { ...ctx.settings, 'docstore.clamav-port': clamd.port }, logger, s3 });
    worker = await startTestWorker({
      ...up,
      // The first two attempts still find the scanner down; Temporal retries with backoff.
      scanPendingDocument: (input: Parameters<typeof up.scanPendingDocument>[0]) =>
        Context.current().info.attempt <= 2 ? down.scanPendingDocument(input) : up.scanPendingDocument(input),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await clamd?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('PENDING at finalize, READY after the retries', async () => {
    const t = await seedDocTenant(ctx);
    const res = await api.upload(t.as('writer'), { fields: formFields('scan-retried'), file: { filename: 'scan.bin', data: patterned(20_000, 2) } });
    expect(res.json).toMatchObject({ status: 'PENDING', scanStatus: 'ERROR' });
    await testDispatcher(ctx, worker, ['DOCUMENTS']).dispatchOnce();
    const outbox = await eventually(() => getOutboxRow(ctx.db.db, 'DOCUMENTS', t.id, `scan-${res.json.id}`), (o) => o?.state === 'CLOSED');
    expect(await worker.client.workflow.getHandle(outbox!.workflowId).result()).toMatchObject({ status: 'READY', settledHere: true });
    await saveHistory(worker.client, { workflowId: outbox!.workflowId }, 'retried-then-clean');
  });
});

describe('record: retentionPurge', () => {
  const ctx = useTestApp({ deps: { s3 } });
  const api = docApi(() => ctx.app, new ResponseRecorder(), INTERNAL_KEY);
  let worker: TestWorker;

  beforeAll(async () => {
    const t = await seedDocTenant(ctx);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.upload(t.as('writer'), { fields: formFields('case-purge'), file: { filename: `old-${i}.txt`, data: Buffer.from(`old-${i}`) } });
      expect(res.status, res.text).toBe(201);
      ids.push(res.json.id);
    }
    await ctx.db.sql`update documents set retain_until = now() - interval '1 day' where id = any(${ids}::uuid[])`;
    worker = await startTestWorker(createActivities({ db: ctx.db.db, settings: ctx.settings, logger, s3 }));
  });
  afterAll(async () => {
    await worker?.stop();
  });

  for (const [path, dryRun] of [['dry-run', true], ['real-run', false]] as const) {
    it(path, async () => {
      const workflowId = `purge-${path}-${Date.now().toString(36)}`;
      const report = await worker.client.workflow.execute('retentionPurge', { taskQueue: worker.taskQueue, workflowId, args: [{ dryRun, batchSize: 2 }] });
      expect(report).toMatchObject(dryRun ? { wouldMark: 3 } : { marked: 3, batches: 2 });
      await saveHistory(worker.client, { workflowId }, path);
    });
  }
});
