// Records the calendar processes for the replay corpus: slaDueDate (a due date on a standard
// calendar, and a business failure that fails the workflow) and slaClock through the API and the
// outbox (breached after its warnings; paused, resumed and cancelled).
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendarActivities } from '../../../activities/calendars';
import { createOutboxActivities } from '../../../activities/outbox';
import { createSlaClockActivities } from '../../../activities/sla-clocks';
import { getOutboxRow } from '../../../db/outbox';
import { slaClockStateQuery } from '../../../workflows/sla-clock';
import { client, useTestApp } from '../../support/app';
import { createStandardCalendar, seedCalendarTenant } from '../../support/calendars';
import { eventually } from '../../support/ceremony';
import { createAlwaysOpenCalendar, floorMinute, MINUTE } from '../../support/sla-clocks';
import { startTestWorker, testDispatcher, type TestWorker } from '../../support/temporal';
import { saveHistory } from './save-history';

describe('record: slaDueDate', () => {
  const ctx = useTestApp();
  let worker: TestWorker;
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;

  beforeAll(async () => {
    worker = await startTestWorker(createCalendarActivities({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger }));
    t = await seedCalendarTenant(ctx);
    await createStandardCalendar(ctx, t.asOwner, 'SUP', { newYork: true });
  });
  afterAll(async () => {
    await worker?.stop();
  });

  const run = async (path: string, request: Record<string, unknown>) => {
    const workflowId = `sla-${path}-${Date.now().toString(36)}`;
    const outcome = await worker.client.workflow
      .execute('slaDueDate', { taskQueue: worker.taskQueue, workflowId, args: [{ tenantId: t.id, ...request }] })
      .catch((err: unknown) => err);
    await saveHistory(worker.client, { workflowId }, path);
    return outcome;
  };

  it('a due date', async () => {
    const r = await run('due-date', { calendarCode: 'SUP', receivedDateTime: '2025-04-04T16:30:00', receivedTimezone: 'Europe/Berlin', sla: { businessDays: 2, businessMinutes: 30 } });
    expect(r).toMatchObject({ calendarCode: 'SUP', totalBusinessMinutesConsumed: 990 });
  });

  it('an unknown calendar fails the workflow', async () => {
    expect(await run('calendar-not-found', { calendarCode: 'NOPE', receivedDateTime: '2025-04-04T16:30:00Z', sla: { businessDays: 1 } })).toBeInstanceOf(WorkflowFailedError);
  });
});

describe('record: slaClock', () => {
  const CLOCKS = '/api/sla-clocks';
  const ctx = useTestApp();
  const api = client(ctx);
  let worker: TestWorker;
  let dispatcher: ReturnType<typeof testDispatcher>;
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;

  beforeAll(async () => {
    const deps = { db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger, compiledCalendars: ctx.deps.compiledCalendars };
    worker = await startTestWorker({ ...createSlaClockActivities(deps), ...createOutboxActivities(deps) });
    dispatcher = testDispatcher(ctx, worker, ['SLA']);
    await dispatcher.start();
    t = await seedCalendarTenant(ctx);
    await createAlwaysOpenCalendar(ctx, t.asOwner, 'ALWAYS', 'always');
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await worker?.stop();
  });

  const start = async (body: Record<string, unknown>) => {
    const r = await api.post(CLOCKS, t.asOwner, { processCalendarKey: 'always', subject: { kind: 'ticket', id: 'R-1' }, ...body });
    expect(r.status, r.text).toBe(201);
    return { id: r.json.id as string, workflowId: `sla:${t.id}:${r.json.id}` };
  };

  it('breached after its 50 % and 75 % warnings', async () => {
    // Started three minutes ago with a two-minute budget: both warnings and the breach are due at once.
    const clock = await start({ receivedAt: new Date(floorMinute(Date.now()) - 3 * MINUTE).toISOString(), budget: { minutes: 2 } });
    await eventually(() => getOutboxRow(ctx.db.db, 'SLA', t.id, clock.id), (row) => row?.state === 'CLOSED');
    expect(await worker.client.workflow.getHandle(clock.workflowId).result()).toMatchObject({ state: 'BREACHED', finished: true });
    await saveHistory(worker.client, { workflowId: clock.workflowId }, 'breached-after-warnings');
  });

  it('paused, resumed, cancelled', async () => {
    const clock = await start({ budget: { minutes: 60 } });
    const handle = worker.client.workflow.getHandle(clock.workflowId);
    await eventually(() => getOutboxRow(ctx.db.db, 'SLA', t.id, clock.id), (row) => row?.state === 'STARTED');
    expect((await api.post(`${CLOCKS}/${clock.id}/pause`, t.asOwner)).json.state).toBe('PAUSED');
    await eventually(() => handle.query(slaClockStateQuery), (p) => p?.state === 'PAUSED');
    expect((await api.post(`${CLOCKS}/${clock.id}/resume`, t.asOwner)).json.state).toBe('RUNNING');
    await eventually(() => handle.query(slaClockStateQuery), (p) => p?.state === 'RUNNING');
    expect((await api.del(`${CLOCKS}/${clock.id}`, t.asOwner)).json.state).toBe('CANCELLED');
    expect(await handle.result()).toMatchObject({ state: 'CANCELLED', finished: true });
    await saveHistory(worker.client, { workflowId: clock.workflowId }, 'paused-resumed-cancelled');
  });
});
