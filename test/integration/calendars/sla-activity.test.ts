import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendarActivities } from '../../../activities/calendars';
import { client, useTestApp } from '../../support/app';
import { createStandardCalendar, seedCalendarTenant } from '../../support/calendars';
import { startTestWorker, type TestWorker } from '../../support/temporal';

describe('calculateSlaDueDate activity through the slaDueDate workflow on the real Temporal server', () => {
  const ctx = useTestApp();
  const api = client(ctx);
  let worker: TestWorker;
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;

  beforeAll(async () => {
    worker = await startTestWorker(createCalendarActivities({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger }));
    t = await seedCalendarTenant(ctx);
    await createStandardCalendar(ctx, t.asOwner, 'SUP', { newYork: true });
    await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: 'claims', calendarCode: 'SUP', slaBusinessDays: 2, slaBusinessMinutes: 30 });
  });
  afterAll(async () => {
    await worker?.stop();
  });

  const run = (args: unknown) =>
    worker.client.workflow.execute('slaDueDate', {
      taskQueue: worker.taskQueue,
      workflowId: `sla-${Math.random().toString(36).slice(2)}`,
      args: [args],
      workflowExecutionTimeout: '1 minute',
    });

  it('gives the same due date as POST /api/sla/calculate, in both request forms', async () => {
    const received = { receivedDateTime: '2025-04-04T16:30:00', receivedTimezone: 'Europe/Berlin' };
    for (const form of [{ calendarCode: 'SUP', sla: { businessDays: 2, businessMinutes: 30 } }, { processDefinitionKey: 'claims' }]) {
      const viaApi = await api.post('/api/sla/calculate', t.asOwner, { ...received, ...form });
      expect(viaApi.status, viaApi.text).toBe(200);
      const viaWorkflow = await run({ tenantId: t.id, ...received, ...form });
      expect(viaWorkflow).toEqual(viaApi.json);
      expect(viaWorkflow).toMatchObject({ calendarCode: 'SUP', totalBusinessMinutesConsumed: 990 });
    }
  });

  it('a business failure is a non-retryable ApplicationFailure typed with the API error code', async () => {
    const failure = await run({ tenantId: t.id, calendarCode: 'NOPE', receivedDateTime: '2025-04-04T16:30:00Z', sla: { businessDays: 1 } }).catch((e) => e);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause?.cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect((cause as ApplicationFailure).type).toBe('calendar-not-found');
    expect((cause as ApplicationFailure).nonRetryable).toBe(true);
  });

  it('another tenant’s calendar is not found by the activity either', async () => {
    const other = await seedCalendarTenant(ctx);
    const failure = await run({ tenantId: other.id, processDefinitionKey: 'claims', receivedDateTime: '2025-04-04T16:30:00Z' }).catch((e) => e);
    expect(((failure as WorkflowFailedError).cause?.cause as ApplicationFailure).type).toBe('process-calendar-not-found');
  });
});
