// A real Temporal worker with the platform's formIntake and the form-event test workflows on a task
// queue of its own, the outbox dispatcher and the event rail's correlator (driven by the test).
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createFormActivities } from '../../activities/forms';
import type { Settings } from '../../domain/settings';
import { FormEventCorrelator } from '../../workers/form-event-correlator';
import { createWorkerIntegrations } from '../../workers/worker-integrations';
import type { TestContext } from './app';
import { servers } from './servers';
import { startTestWorker, testDispatcher } from './temporal';

const WORKFLOWS = fileURLToPath(new URL('./workflows/form-events.ts', import.meta.url));

export interface FormRailOptions {
  /** Another test workflow bundle (default: ./workflows/form-events.ts). */
  workflowsPath?: string;
  /** Activities besides the forms activities (made with the merged settings). */
  activities?: (settings: Settings) => object;
}

export async function startFormRail(ctx: TestContext, settings: Partial<Settings> = {}, options: FormRailOptions = {}) {
  // startTestWorker installs the SDK runtime once; this worker is the one with our workflows.
  const installer = await startTestWorker({});
  await installer.stop();
  const taskQueue = `tq-${randomBytes(5).toString('hex')}`;
  const address = servers().temporalAddress;
  const native = await NativeConnection.connect({ address });
  const merged = { ...ctx.settings, ...settings };
  const activities = { ...createFormActivities(createWorkerIntegrations({ db: ctx.db.db, settings: merged, logger: ctx.deps.logger, s3: ctx.deps.s3 })), ...options.activities?.(merged) };
  const worker = await Worker.create({ connection: native, taskQueue, workflowsPath: options.workflowsPath ?? WORKFLOWS, activities });
  const running = worker.run();
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  const dispatcher = testDispatcher(ctx, { client, taskQueue }, ['FORMS']);
  const correlator = FormEventCorrelator.fromSettings(ctx.db, ctx.deps.logger, merged);
  return {
    client,
    taskQueue,
    dispatcher,
    correlator,
    /** Correlates and dispatches until both find nothing to do. */
    async drain() {
      for (let i = 0; i < 20; i++) {
        const handled = (await correlator.correlateOnce()) + (await dispatcher.dispatchOnce());
        if (handled === 0) return;
      }
    },
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await native.close();
      await connection.close();
    },
  };
}
