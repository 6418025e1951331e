// The world of a workflow that waits on an SLA clock: a platform worker running the clocks'
// processes (slaClock), the outbox dispatcher for SLA (which also delivers SlaClockEvent to the
// waiting workflow), and a worker of its own for the test workflow slaClockWaiter
// (test/support/workflows/sla-clock-waiter.ts), which starts its clock through the activity.
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createOutboxActivities } from '../../activities/outbox';
import { createSlaClockActivities } from '../../activities/sla-clocks';
import type { TestContext } from './app';
import { servers } from './servers';
import { startTestWorker, testDispatcher, type TestWorker } from './temporal';
import type { SlaClockWaiterInput, slaClockWaiter } from './workflows/sla-clock-waiter';

export const SLA_CLOCK_WAITER = fileURLToPath(new URL('./workflows/sla-clock-waiter.ts', import.meta.url));

export interface WaiterWorld {
  platform: TestWorker;
  startWaiter(input: SlaClockWaiterInput): Promise<WorkflowHandleWithFirstExecutionRunId<typeof slaClockWaiter>>;
  stop(): Promise<void>;
}

export async function openWaiterWorld(ctx: TestContext): Promise<WaiterWorld> {
  const deps = { db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger, compiledCalendars: ctx.deps.compiledCalendars };
  const platform = await startTestWorker({ ...createSlaClockActivities(deps), ...createOutboxActivities(deps) });
  const dispatcher = testDispatcher(ctx, platform, ['SLA']);
  await dispatcher.start();
  const native = await NativeConnection.connect({ address: servers().temporalAddress });
  const taskQueue = `tq-sla-waiter-${randomBytes(4).toString('hex')}`;
  const waiter = await Worker.create({ connection: native, taskQueue, workflowsPath: SLA_CLOCK_WAITER, activities: createSlaClockActivities(deps) });
  const running = waiter.run();
  return {
    platform,
    startWaiter: (input) => platform.client.workflow.start<typeof slaClockWaiter>('slaClockWaiter', { taskQueue, workflowId: `sla-waiter-${randomUUID()}`, args: [input] }),
    async stop() {
      waiter.shutdown();
      await running;
      await native.close();
      await dispatcher.stop();
      await platform.stop();
    },
  };
}
