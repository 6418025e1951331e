import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptionsStartWorkflowAction,
} from '@temporalio/client';
import type { Logger } from 'pino';
import type { retentionPurge, RetentionPurgeInput } from '../workflows/retention-purge';
import { BusinessKeyKey, CapabilityKey, TenantIdKey } from '../workflows/search-attributes';
import type { Settings } from '../domain/settings';

export const RETENTION_PURGE_SCHEDULE_ID = 'documents-retention-purge';

export function retentionPurgeInput(settings: Settings): RetentionPurgeInput {
  return {
    dryRun: settings['docstore.retention-purge.dry-run'],
    batchSize: settings['docstore.retention-purge.batch-size'],
  };
}

function action(settings: Settings): ScheduleOptionsStartWorkflowAction<typeof retentionPurge> {
  return {
    type: 'startWorkflow',
    workflowType: 'retentionPurge',
    args: [retentionPurgeInput(settings)],
    taskQueue: settings['temporal.task-queue'],
    // The schedule appends the scheduled time to this id.
    workflowId: 'documents:all-tenants:retention-purge',
    workflowExecutionTimeout: '6 hours',
    // A platform job across tenants: TenantId `*` finds it next to every tenant's processes.
    typedSearchAttributes: [
      { key: TenantIdKey, value: '*' },
      { key: CapabilityKey, value: 'DOCUMENTS' },
      { key: BusinessKeyKey, value: 'retention-purge' },
    ],
  };
}

/**
 * Start-up: when `docstore.retention-purge.enabled` is true, creates the Temporal Schedule that
 * runs `retentionPurge` (cron `docstore.retention-purge.cron`, UTC; overlapping runs skipped), or
 * brings an existing one up to date with the settings and unpauses it. When it is false, an
 * existing schedule is paused with a note, never left running. Returns what it did.
 */
export async function ensureRetentionPurgeSchedule(
  client: Client,
  settings: Settings,
  logger?: Logger,
): Promise<'created' | 'updated' | 'paused' | 'absent'> {
  const handle = client.schedule.getHandle(RETENTION_PURGE_SCHEDULE_ID);
  const spec = { cronExpressions: [settings['docstore.retention-purge.cron']] };
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' };
  const dryRun = settings['docstore.retention-purge.dry-run'];
  if (!settings['docstore.retention-purge.enabled']) {
    try {
      const described = await handle.describe();
      if (!described.state.paused) await handle.pause('docstore.retention-purge.enabled=false');
      logger?.info({ scheduleId: RETENTION_PURGE_SCHEDULE_ID }, 'retention purge disabled: schedule paused');
      return 'paused';
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) return 'absent';
      throw err;
    }
  }
  const note = `retentionPurge ${dryRun ? 'dry run' : 'marks expired documents DELETED'}`;
  try {
    await client.schedule.create({
      scheduleId: RETENTION_PURGE_SCHEDULE_ID,
      spec,
      action: action(settings),
      policies,
      state: { note },
    });
    logger?.info({ scheduleId: RETENTION_PURGE_SCHEDULE_ID, cron: spec.cronExpressions[0], dryRun }, 'retention purge schedule created');
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  await handle.update((previous) => ({ ...previous, spec, action: action(settings), policies, state: { ...previous.state, note } }));
  const described = await handle.describe();
  if (described.state.paused) await handle.unpause(note);
  logger?.info({ scheduleId: RETENTION_PURGE_SCHEDULE_ID, cron: spec.cronExpressions[0], dryRun }, 'retention purge schedule updated');
  return 'updated';
}
