import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptionsStartWorkflowAction,
} from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import type { Logger } from 'pino';
import { AccessRequestExpirySweepProcess } from '../domain/access/expiry-processes';
import { RetentionPurgeProcess } from '../domain/documents/retention-purge-process';
import { FormExpirySweepProcess } from '../domain/forms/outbound-expiry-process';
import type { KeyedProcessContract } from '../domain/process-contract';
import type { Settings } from '../domain/settings';
import { BusinessKeyKey, CapabilityKey, TenantIdKey } from '../workflows/search-attributes';

type BooleanSetting = { [K in keyof Settings]: Settings[K] extends boolean ? K : never }[keyof Settings];

/** A platform job on a Temporal Schedule, everything about it read from settings at start-up. */
export interface PlatformSchedule<I = never> {
  id: string;
  /** For log lines: `<label> schedule created`. */
  label: string;
  /** When false, an existing schedule is paused with a note, never left running (nor deleted). */
  enabledBy: BooleanSetting;
  cron(settings: Settings): string;
  /** The process each run starts: workflow type, capability, tenant and business key (search attributes). */
  process: KeyedProcessContract<I>;
  input(settings: Settings): I;
  /** The schedule appends the scheduled time to this id. */
  workflowId: string;
  workflowExecutionTimeout: string;
  /** Shown on the schedule in the Web UI: what a run does with these settings (e.g. a dry run). */
  note(settings: Settings): string;
  /** Extra fields of the start-up log line. */
  logFields?(settings: Settings): Record<string, unknown>;
}

const schedule = <I>(s: PlatformSchedule<I>): PlatformSchedule => s as unknown as PlatformSchedule;

export const RETENTION_PURGE_SCHEDULE_ID = 'documents-retention-purge';

export const retentionPurgeSchedule = schedule({
  id: RETENTION_PURGE_SCHEDULE_ID,
  label: 'retention purge',
  enabledBy: 'docstore.retention-purge.enabled',
  cron: (settings) => settings['docstore.retention-purge.cron'],
  process: RetentionPurgeProcess,
  input: (settings) => ({
    dryRun: settings['docstore.retention-purge.dry-run'],
    batchSize: settings['docstore.retention-purge.batch-size'],
  }),
  workflowId: 'documents:all-tenants:retention-purge',
  workflowExecutionTimeout: '6 hours',
  note: (settings) =>
    `retentionPurge ${settings['docstore.retention-purge.dry-run'] ? 'dry run' : 'marks expired documents DELETED'}`,
  logFields: (settings) => ({ dryRun: settings['docstore.retention-purge.dry-run'] }),
});

export const FORM_EXPIRY_SWEEP_SCHEDULE_ID = 'forms-expiry-sweep';

export const formExpirySweepSchedule = schedule({
  id: FORM_EXPIRY_SWEEP_SCHEDULE_ID,
  label: 'form expiry sweep',
  enabledBy: 'forms.expiry-sweep.enabled',
  cron: (settings) => settings['forms.expiry-sweep.cron'],
  process: FormExpirySweepProcess,
  input: (settings) => ({ batchSize: settings['forms.expiry-sweep.batch-size'] }),
  workflowId: 'forms:all-tenants:expiry-sweep',
  workflowExecutionTimeout: '1 hour',
  note: (settings) => `formExpirySweep moves open form instances past expiresAt to EXPIRED, ${settings['forms.expiry-sweep.batch-size']} per batch`,
});

export const ACCESS_REQUEST_EXPIRY_SWEEP_SCHEDULE_ID = 'access-request-expiry-sweep';

export const accessRequestExpirySweepSchedule = schedule({
  id: ACCESS_REQUEST_EXPIRY_SWEEP_SCHEDULE_ID,
  label: 'access request expiry sweep',
  enabledBy: 'access.request-expiry-sweep.enabled',
  cron: (settings) => settings['access.request-expiry-sweep.cron'],
  process: AccessRequestExpirySweepProcess,
  input: (settings) => ({ ttlDays: settings['access.request-ttl-days'], batchSize: settings['access.request-expiry-sweep.batch-size'] }),
  workflowId: 'access:all-tenants:request-expiry-sweep',
  workflowExecutionTimeout: '1 hour',
  note: (settings) => `accessRequestExpirySweep moves PENDING access requests older than ${settings['access.request-ttl-days']} days to EXPIRED`,
});

/** Every schedule the platform runs; a worker ensures each one at start-up. */
export const PLATFORM_SCHEDULES: readonly PlatformSchedule[] = [retentionPurgeSchedule, formExpirySweepSchedule, accessRequestExpirySweepSchedule];

export type ScheduleOutcome = 'created' | 'updated' | 'paused' | 'absent';

/** Worker start-up: brings every platform schedule in line with the settings; returns what it did, by id. */
export async function ensureSchedules(
  client: Client,
  settings: Settings,
  logger?: Logger,
  schedules: readonly PlatformSchedule[] = PLATFORM_SCHEDULES,
): Promise<Record<string, ScheduleOutcome>> {
  const outcomes: Record<string, ScheduleOutcome> = {};
  for (const s of schedules) outcomes[s.id] = await ensureSchedule(client, s, settings, logger);
  return outcomes;
}

/**
 * Enabled: creates the schedule (cron in UTC, overlapping runs skipped), or brings an existing
 * one up to date with the settings and unpauses it. Disabled: pauses an existing schedule
 * (`absent` when there is none).
 */
export async function ensureSchedule(
  client: Client,
  s: PlatformSchedule,
  settings: Settings,
  logger?: Logger,
): Promise<ScheduleOutcome> {
  const handle = client.schedule.getHandle(s.id);
  const spec = { cronExpressions: [s.cron(settings)] };
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' };
  if (!settings[s.enabledBy]) {
    try {
      const described = await handle.describe();
      if (!described.state.paused) await handle.pause(`${s.enabledBy}=false`);
      logger?.info({ scheduleId: s.id }, `${s.label} disabled: schedule paused`);
      return 'paused';
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) return 'absent';
      throw err;
    }
  }
  const note = s.note(settings);
  const logged = { scheduleId: s.id, cron: spec.cronExpressions[0], ...s.logFields?.(settings) };
  try {
    await client.schedule.create({ scheduleId: s.id, spec, action: action(s, settings), policies, state: { note } });
    logger?.info(logged, `${s.label} schedule created`);
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  await handle.update((previous) => ({ ...previous, spec, action: action(s, settings), policies, state: { ...previous.state, note } }));
  const described = await handle.describe();
  if (described.state.paused) await handle.unpause(note);
  logger?.info(logged, `${s.label} schedule updated`);
  return 'updated';
}

function action(s: PlatformSchedule, settings: Settings): ScheduleOptionsStartWorkflowAction<Workflow> {
  const input = s.input(settings);
  return {
    type: 'startWorkflow',
    workflowType: s.process.workflowType,
    args: [input],
    taskQueue: settings['temporal.task-queue'],
    workflowId: s.workflowId,
    workflowExecutionTimeout: s.workflowExecutionTimeout,
    typedSearchAttributes: [
      { key: TenantIdKey, value: s.process.tenantOf(input) },
      { key: CapabilityKey, value: s.process.capability },
      { key: BusinessKeyKey, value: s.process.businessKey(input) },
    ],
  };
}
