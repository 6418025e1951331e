import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../../workers/config';
import { PLATFORM_SCHEDULES, RETENTION_PURGE_SCHEDULE_ID, retentionPurgeSchedule } from '../../../workers/schedules';

describe('platform schedules', () => {
  const defaults = loadSettings({});

  it('lists each schedule once, each switched by a boolean setting that is off by default', () => {
    const ids = PLATFORM_SCHEDULES.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(RETENTION_PURGE_SCHEDULE_ID);
    for (const s of PLATFORM_SCHEDULES) expect(defaults[s.enabledBy]).toBe(false);
  });

  it('builds the retention purge run from settings: cron, dry run and batch size', () => {
    expect(retentionPurgeSchedule.cron(defaults)).toBe('30 3 * * *');
    expect(retentionPurgeSchedule.input(defaults)).toEqual({ dryRun: true, batchSize: 500 });
    expect(retentionPurgeSchedule.process.workflowType).toBe('retentionPurge');
    expect(retentionPurgeSchedule.note(defaults)).toBe('retentionPurge dry run');
    const real = loadSettings({
      DOCSTORE_RETENTION_PURGE_DRY_RUN: 'false',
      DOCSTORE_RETENTION_PURGE_BATCH_SIZE: '50',
      DOCSTORE_RETENTION_PURGE_CRON: '0 1 * * *',
    });
    expect(retentionPurgeSchedule.cron(real)).toBe('0 1 * * *');
    expect(retentionPurgeSchedule.input(real)).toEqual({ dryRun: false, batchSize: 50 });
    expect(retentionPurgeSchedule.note(real)).toBe('retentionPurge marks expired documents DELETED');
  });
});
