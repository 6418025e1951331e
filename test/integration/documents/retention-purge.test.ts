// The retentionPurge workflow on a real Temporal worker (dry run and real run, in batches,
// storage untouched, report as result and log line) and its Temporal Schedule.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Client } from '@temporalio/client';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../../workers/worker-activities';
import type { Settings } from '../../../domain/settings';
import { ensureSchedule, ensureSchedules, RETENTION_PURGE_SCHEDULE_ID, retentionPurgeSchedule } from '../../../workers/schedules';
import type { RetentionPurgeReport } from '../../../workflows/retention-purge';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { docApi, documentRow, formFields, ResponseRecorder, s3State, seedDocTenant, testS3Client } from '../../support/documents';
import { startTestWorker, type TestWorker } from '../../support/temporal';

const s3 = testS3Client();

describe('retention purge', () => {
  const ctx = useTestApp({ deps: { s3 } });
  const rec = new ResponseRecorder();
  const api = docApi(() => ctx.app, rec, INTERNAL_KEY);
  const logLines: string[] = [];
  let t: Awaited<ReturnType<typeof seedDocTenant>>;
  let worker: TestWorker;
  const expired: string[] = [];
  let future: string;
  let alreadyDeleted: string;

  const upload = async (name: string) => {
    const res = await api.upload(t.as('writer'), { fields: formFields('case-purge'), file: { filename: `${name}.txt`, data: Buffer.from(name) } });
    expect(res.status, res.text).toBe(201);
    return res.json.id as string;
  };

  beforeAll(async () => {
    t = await seedDocTenant(ctx);
    for (let i = 0; i < 5; i++) expired.push(await upload(`old-${i}`));
    future = await upload('future');
    alreadyDeleted = await upload('deleted');
    // Horizons in the past (the S3 locks themselves stay in the future; the purge never touches storage).
    await ctx.db.sql`update documents set retain_until = now() - interval '1 day' where id = any(${[...expired, alreadyDeleted]}::uuid[])`;
    await ctx.db.sql`update documents set status = 'DELETED', deleted_at = now() where id = ${alreadyDeleted}`;
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _e, done) => (logLines.push(String(chunk)), done()) }));
    worker = await startTestWorker(createActivities({ db: ctx.db.db, settings: ctx.settings, logger, s3 }));
  });
  afterAll(async () => {
    await worker?.client.schedule.getHandle(RETENTION_PURGE_SCHEDULE_ID).delete().catch(() => undefined);
    await worker?.stop();
  });

  const run = (dryRun: boolean, batchSize: number): Promise<RetentionPurgeReport> =>
    worker.client.workflow.execute('retentionPurge', {
      taskQueue: worker.taskQueue,
      workflowId: `purge-${randomUUID()}`,
      args: [{ dryRun, batchSize }],
    });
  const statuses = async (ids: string[]) => Promise.all(ids.map(async (id) => (await documentRow(ctx, id))!.status));

  it('dry run only reports: how many rows, per tenant, with sample ids; nothing is marked', async () => {
    const report = await run(true, 2);
    expect(report).toMatchObject({ dryRun: true, wouldMark: 5, byTenant: { [t.id]: 5 } });
    expect(report.sample!.map((s) => s.id).sort()).toEqual([...expired].sort());
    expect(await statuses(expired)).toEqual(Array(5).fill('READY'));
    expect(logLines.some((l) => l.includes('retention purge report') && l.includes('"wouldMark":5'))).toBe(true);
  });

  it('a real run marks expired rows DELETED in batches, skips live and deleted ones, never touches storage', async () => {
    const versionsBefore = await s3State(s3, ctx.settings['s3.bucket'], `${t.id}/case-purge/`);
    const report = await run(false, 2);
    expect(report).toMatchObject({ dryRun: false, marked: 5, batches: 3, byTenant: { [t.id]: 5 } });
    expect(await statuses(expired)).toEqual(Array(5).fill('DELETED'));
    const first = (await documentRow(ctx, expired[0]!))!;
    expect(first.deletedAt).toBeInstanceOf(Date);
    expect(first.version).toBe(3);
    expect((await documentRow(ctx, future))!.status).toBe('READY');
    expect(await s3State(s3, ctx.settings['s3.bucket'], `${t.id}/case-purge/`)).toEqual(versionsBefore);
    expect(logLines.some((l) => l.includes('retention purge report') && l.includes('"marked":5'))).toBe(true);
  });

  it('a second real run finds nothing', async () => {
    expect(await run(false, 2)).toMatchObject({ marked: 0, batches: 1, byTenant: {} });
  });

  describe('ensureRetentionPurgeSchedule', () => {
    const ensureRetentionPurgeSchedule = (client: Client, s: Settings) => ensureSchedule(client, retentionPurgeSchedule, s);
    const settings = (enabled: boolean) => ({
      ...ctx.settings,
      'docstore.retention-purge.enabled': enabled,
      'temporal.task-queue': worker.taskQueue,
    });

    it('does nothing while disabled and no schedule exists', async () => {
      expect(await ensureRetentionPurgeSchedule(worker.client, settings(false))).toBe('absent');
    });

    it('creates the schedule when enabled: the cron, retentionPurge with the dry-run default, the worker task queue', async () => {
      expect(await ensureRetentionPurgeSchedule(worker.client, settings(true))).toBe('created');
      const d = await worker.client.schedule.getHandle(RETENTION_PURGE_SCHEDULE_ID).describe();
      expect(d.spec.calendars?.length ?? 0).toBeGreaterThan(0);
      expect(d.action).toMatchObject({ type: 'startWorkflow', workflowType: 'retentionPurge', taskQueue: worker.taskQueue, args: [{ dryRun: true, batchSize: 500 }] });
      expect(d.state.paused).toBe(false);
    });

    it('a run of the schedule reports as its workflow result', async () => {
      const handle = worker.client.schedule.getHandle(RETENTION_PURGE_SCHEDULE_ID);
      await handle.trigger();
      let workflowId: string | undefined;
      for (let i = 0; i < 100 && !workflowId; i++) {
        workflowId = (await handle.describe()).info.recentActions[0]?.action.workflow.workflowId;
        if (!workflowId) await new Promise((r) => setTimeout(r, 100));
      }
      const report: RetentionPurgeReport = await worker.client.workflow.getHandle(workflowId!).result();
      expect(report).toMatchObject({ dryRun: true, wouldMark: 0 });
    });

    it('is updated on a second start, paused when disabled, and resumed when enabled again', async () => {
      expect(await ensureRetentionPurgeSchedule(worker.client, settings(true))).toBe('updated');
      expect(await ensureRetentionPurgeSchedule(worker.client, settings(false))).toBe('paused');
      const handle = worker.client.schedule.getHandle(RETENTION_PURGE_SCHEDULE_ID);
      expect((await handle.describe()).state.paused).toBe(true);
      expect(await ensureRetentionPurgeSchedule(worker.client, { ...settings(true), 'docstore.retention-purge.dry-run': false })).toBe('updated');
      const d = await handle.describe();
      expect(d.state.paused).toBe(false);
      expect(d.action).toMatchObject({ args: [{ dryRun: false }] });
    });

    it('is one of the platform schedules that worker start-up ensures together', async () => {
      expect(await ensureSchedules(worker.client, settings(false))).toMatchObject({ [RETENTION_PURGE_SCHEDULE_ID]: 'paused' });
      expect((await worker.client.schedule.getHandle(RETENTION_PURGE_SCHEDULE_ID).describe()).state.paused).toBe(true);
    });
  });

  it('storage-key leak check: no response of this file carried a storage key', async () => {
    await rec.expectNoStorageKeys(ctx);
  });
});
