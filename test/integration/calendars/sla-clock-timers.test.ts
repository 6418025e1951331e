// The slaClock process sleeping on its timers, on the time-skipping test server: a clock of four
// business minutes on a calendar open now reaches 50 %, 75 % and the breach without the test
// waiting those minutes (the test skips the server's time to just past each timer).
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxActivities } from '../../../activities/outbox';
import { createSlaClockActivities } from '../../../activities/sla-clocks';
import { timeSkippingServerPath } from '../../../workers/embedded/temporal';
import { workflowsPath } from '../../../workers/worker-process';
import { client, useTestApp } from '../../support/app';
import { seedCalendarTenant } from '../../support/calendars';
import { eventually } from '../../support/ceremony';
import { createAlwaysOpenCalendar, MINUTE } from '../../support/sla-clocks';
import { slaClockStateQuery } from '../../../workflows/sla-clock';

describe('slaClock timers (time-skipping test server)', () => {
  const ctx = useTestApp();
  const api = client(ctx);
  let env: TestWorkflowEnvironment;
  let worker: Worker;
  let running: Promise<void>;
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;
  const taskQueue = `sla-clock-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    env = await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: await timeSkippingServerPath() } },
    });
    const deps = { db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger, compiledCalendars: ctx.deps.compiledCalendars };
    worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowsPath,
      activities: { ...createSlaClockActivities(deps), ...createOutboxActivities(deps) },
    });
    running = worker.run();
    t = await seedCalendarTenant(ctx);
    await createAlwaysOpenCalendar(ctx, t.asOwner, 'ALWAYS', 'always');
  }, 180_000);
  afterAll(async () => {
    if (worker?.getState() === 'RUNNING') worker.shutdown();
    await running;
    await env?.teardown();
  });

  it('four business minutes on a calendar open now: the process sleeps until 2, 3 and 4 minutes and records 50 %, 75 % and the breach', async () => {
    const r = await api.post('/api/sla-clocks', t.asOwner, { processCalendarKey: 'always', budget: { minutes: 4 }, subject: { kind: 'ticket', id: 'S-4' } });
    expect(r.status, r.text).toBe(201);
    const clock = r.json as { id: string; startedAt: string; dueAt: string };
    const after = (minutes: number) => new Date(Date.parse(clock.startedAt) + minutes * MINUTE).toISOString();
    expect(clock.dueAt).toBe(after(4));
    const handle = await env.client.workflow.start('slaClock', { taskQueue, workflowId: `sla:${t.id}:${clock.id}`, args: [{ tenantId: t.id, clockId: clock.id }] });
    const read = async () => (await api.get(`/api/sla-clocks/${clock.id}`, t.asOwner)).json;

    // Time stands still between the steps (only env.sleep skips it), so the process's workflow
    // tasks and activities run at real pace and never see a task time-out skipped past them.
    const steps: Array<[string, (c: { warnings: unknown[]; state: string }) => boolean]> = [
      [after(2), (c) => c.warnings.length === 1],
      [after(3), (c) => c.warnings.length === 2],
      [after(4), (c) => c.state === 'BREACHED'],
    ];
    for (const [milestone, reached] of steps) {
      const progress = await eventually(() => handle.query(slaClockStateQuery), (p) => p?.nextAt === milestone);
      expect(progress).toMatchObject({ state: 'RUNNING', finished: false });
      expect(reached(await read())).toBe(false);
      await env.sleep(Date.parse(milestone) + 500 - (await env.currentTimeMs()));
      await eventually(read, reached);
    }
    await eventually(() => handle.describe(), (d) => d.status.name === 'COMPLETED');
    const done = await read();
    expect(done).toMatchObject({ state: 'BREACHED', breachedAt: after(4) });
    expect(done.warnings.map((w: { percent: number; at: string }) => [w.percent, w.at])).toEqual([
      [50, after(2)],
      [75, after(3)],
    ]);
    expect(done.history.map((e: { kind: string }) => e.kind)).toEqual(['started', 'warning', 'warning', 'breached']);
  });
});
