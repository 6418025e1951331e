// Workflows waiting on an SLA clock, on the real Temporal server with the outbox dispatcher: a
// workflow starts a clock through the `startSlaClock` activity and hears its 75 % warning and its
// breach (SlaClockEvent, written with each recorded event), also when they arrived before it
// waited; met when the clock is stopped, cancelled when it is deleted; null on timeout. A clock
// started over HTTP signals nobody, and the activity acts for the tenant it is given only.
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getOutboxRow } from '../../../db/outbox';
import { client, useTestApp } from '../../support/app';
import { seedCalendarTenant } from '../../support/calendars';
import { eventually } from '../../support/ceremony';
import { openWaiterWorld, type WaiterWorld } from '../../support/sla-clock-waiter';
import { createAlwaysOpenCalendar, floorMinute, MINUTE } from '../../support/sla-clocks';
import { releaseSignal } from '../../support/workflows/sla-clock-waiter';

const CLOCKS = '/api/sla-clocks';
const iso = (ms: number) => new Date(ms).toISOString();

describe('workflows waiting on SLA clocks (real Temporal server, outbox dispatcher)', () => {
  const ctx = useTestApp();
  const api = client(ctx);
  let world: WaiterWorld;
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;
  let other: Awaited<ReturnType<typeof seedCalendarTenant>>;

  beforeAll(async () => {
    world = await openWaiterWorld(ctx);
    t = await seedCalendarTenant(ctx);
    other = await seedCalendarTenant(ctx);
    await createAlwaysOpenCalendar(ctx, t.asOwner, 'ALWAYS', 'always');
    await createAlwaysOpenCalendar(ctx, other.asOwner, 'THEIRS', 'theirs');
  });
  afterAll(async () => {
    await world?.stop();
  });

  const clockStart = (body: { receivedAt?: number; minutes: number; warnAt?: number[] }, tenantId = t.id, processCalendarKey = 'always') => ({
    tenantId,
    processCalendarKey,
    ...(body.receivedAt === undefined ? {} : { receivedAt: iso(body.receivedAt) }),
    budget: { days: 0, minutes: body.minutes },
    subject: { kind: 'ticket', id: 'W-1' },
    ...(body.warnAt ? { warnAt: body.warnAt } : {}),
  });
  const signalRows = (workflowId: string) =>
    ctx.db.sql<{ state: string; business_key: string }[]>`select state, business_key from outbox where workflow_id = ${workflowId} and signal_name = 'SlaClockEvent'`;
  const clockOf = async (workflowId: string) => {
    const rows = await eventually(
      () => ctx.db.sql<{ id: string; created_by: string }[]>`select id, created_by from sla_clocks where waiting_workflow_id = ${workflowId}`,
      (r) => r.length > 0,
    );
    return rows[0]!;
  };

  it('hears the 75 % warning and then the breach, each at its business instant', async () => {
    // 50 % is due at once, 75 % half a minute later, the breach a minute later: waited on by the workflow.
    const receivedAt = floorMinute(Date.now()) - MINUTE;
    const waiter = await world.startWaiter({
      start: clockStart({ receivedAt, minutes: 2 }),
      waitFor: [{ kinds: ['warning'], percent: 75 }, { kinds: ['breached', 'met'] }],
      wait: '10 minutes',
    });
    const result = await waiter.result();
    expect(result.dueAt).toBe(iso(receivedAt + 2 * MINUTE));
    expect(result.events).toEqual([
      { clockId: result.clockId, kind: 'warning', percent: 75, at: iso(receivedAt + 1.5 * MINUTE) },
      { clockId: result.clockId, kind: 'breached', percent: 100, at: iso(receivedAt + 2 * MINUTE) },
    ]);
    const clock = (await api.get(`${CLOCKS}/${result.clockId}`, t.asOwner)).json;
    expect(clock).toMatchObject({ state: 'BREACHED', createdBy: `workflow:${waiter.workflowId}` });
    // One signal per warning and the breach, each delivered (the 50 % one too: the workflow only did not ask for it).
    const rows = await eventually(() => signalRows(waiter.workflowId), (r) => r.length === 3 && r.every((x) => x.state === 'DELIVERED'));
    expect(rows.every((r) => r.business_key === result.clockId)).toBe(true);
  });

  it('events that arrived before the workflow waited count (the signal is buffered until the helper listens)', async () => {
    // Three minutes ago with a two-minute budget: both warnings and the breach are recorded in the clock's first step.
    const receivedAt = floorMinute(Date.now()) - 3 * MINUTE;
    const waiter = await world.startWaiter({
      start: clockStart({ receivedAt, minutes: 2 }),
      waitFor: [{ kinds: ['breached'] }, { kinds: ['warning'], percent: 75 }, { kinds: ['warning'] }],
      wait: '10 minutes',
      held: true,
    });
    await eventually(() => signalRows(waiter.workflowId), (r) => r.length === 3 && r.every((x) => x.state === 'DELIVERED'));
    await waiter.signal(releaseSignal);
    const { clockId, events } = await waiter.result();
    expect(events).toEqual([
      { clockId, kind: 'breached', percent: 100, at: iso(receivedAt + 2 * MINUTE) },
      { clockId, kind: 'warning', percent: 75, at: iso(receivedAt + 1.5 * MINUTE) },
      { clockId, kind: 'warning', percent: 50, at: iso(receivedAt + MINUTE) },
    ]);
  });

  it('a clock stopped over HTTP sends met to the waiting workflow; a wait that times out answers null', async () => {
    const waiter = await world.startWaiter({ start: clockStart({ minutes: 60 }), waitFor: [{ kinds: ['breached', 'met'] }], wait: '10 minutes' });
    const clock = await clockOf(waiter.workflowId);
    const stopped = await api.post(`${CLOCKS}/${clock.id}/stop`, t.asOwner);
    expect(stopped.status, stopped.text).toBe(200);
    expect(stopped.json.state).toBe('MET');
    expect((await waiter.result()).events).toEqual([{ clockId: clock.id, kind: 'met', percent: null, at: stopped.json.stoppedAt }]);

    const patient = await world.startWaiter({ start: clockStart({ minutes: 60 }), waitFor: [{ kinds: ['breached'] }], wait: '1 second' });
    const result = await patient.result();
    expect(result.events).toEqual([null]);
    expect((await api.del(`${CLOCKS}/${result.clockId}`, t.asOwner)).json.state).toBe('CANCELLED');
  });

  it('a clock deleted over HTTP sends cancelled to the waiting workflow (it would otherwise wait for a breach that never comes)', async () => {
    const waiter = await world.startWaiter({
      start: clockStart({ minutes: 60 }),
      waitFor: [{ kinds: ['breached', 'met', 'cancelled'] }],
      wait: '10 minutes',
    });
    const clock = await clockOf(waiter.workflowId);
    const deleted = await api.del(`${CLOCKS}/${clock.id}`, t.asOwner);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json.state).toBe('CANCELLED');
    expect((await waiter.result()).events).toEqual([{ clockId: clock.id, kind: 'cancelled', percent: null, at: deleted.json.cancelledAt }]);
  });

  it('a clock started over HTTP signals no workflow, whatever its body says', async () => {
    const receivedAt = floorMinute(Date.now()) - 3 * MINUTE;
    const r = await api.post(CLOCKS, t.asOwner, {
      processCalendarKey: 'always',
      receivedAt: iso(receivedAt),
      budget: { minutes: 2 },
      subject: { kind: 'ticket', id: 'H-1' },
      waitingWorkflowId: 'someone-elses',
      startKey: 'borrowed',
    });
    expect(r.status, r.text).toBe(201);
    // The clock's process records both warnings and the breach, then closes its outbox row.
    await eventually(() => getOutboxRow(ctx.db.db, 'SLA', t.id, r.json.id), (row) => row?.state === 'CLOSED');
    expect((await api.get(`${CLOCKS}/${r.json.id}`, t.asOwner)).json.state).toBe('BREACHED');
    const [row] = await ctx.db.sql`select waiting_workflow_id, start_key from sla_clocks where id = ${r.json.id}`;
    expect(row).toEqual({ waiting_workflow_id: null, start_key: null });
    const signals = await ctx.db.sql`select workflow_id, signal_name from outbox where business_key = ${r.json.id} and verb = 'signal'`;
    expect(signals).toEqual([]);
  });

  it("tenant isolation: the activity acts for the tenant it is given; another tenant's clock is 404 and signals nobody of it", async () => {
    // t has no association `theirs` (only the other tenant has): the activity does not see the other's.
    const refused = await world.startWaiter({ start: clockStart({ minutes: 60 }, t.id, 'theirs'), waitFor: [{}], wait: '1 minute' });
    const failure = await refused.result().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect((failure as WorkflowFailedError).cause?.cause).toMatchObject({ type: 'process-calendar-not-found', nonRetryable: true });

    // Input the route's schema would refuse is refused by the activity too (not retried).
    const invalid = await world.startWaiter({ start: clockStart({ minutes: 60, warnAt: [0] }), waitFor: [{}], wait: '1 minute' });
    const invalidFailure = await invalid.result().catch((err: unknown) => err);
    expect((invalidFailure as WorkflowFailedError).cause?.cause).toMatchObject({ type: 'validation-failed', nonRetryable: true });

    const waiter = await world.startWaiter({ start: clockStart({ minutes: 60 }, other.id, 'theirs'), waitFor: [{ kinds: ['met'] }], wait: '10 minutes' });
    const clock = await clockOf(waiter.workflowId);
    expect((await api.get(`${CLOCKS}/${clock.id}`, t.asOwner)).status).toBe(404);
    expect((await api.post(`${CLOCKS}/${clock.id}/stop`, t.asOwner)).status).toBe(404);
    expect((await api.get(`${CLOCKS}/${clock.id}`, other.asOwner)).json).toMatchObject({ state: 'RUNNING', processCalendarKey: 'theirs' });
    const stopped = await api.post(`${CLOCKS}/${clock.id}/stop`, other.asOwner);
    expect(stopped.json.state).toBe('MET');
    expect((await waiter.result()).events).toEqual([{ clockId: clock.id, kind: 'met', percent: null, at: stopped.json.stoppedAt }]);
    const rows = await ctx.db.sql`select tenant_id from outbox where workflow_id = ${waiter.workflowId} and signal_name = 'SlaClockEvent'`;
    expect(rows.map((r) => r.tenant_id)).toEqual([other.id]);
  });
});
