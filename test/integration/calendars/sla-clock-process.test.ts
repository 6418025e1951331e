// The slaClock process on the real Temporal server, driven through the API and the outbox
// dispatcher: warnings and the breach recorded by the process, a holiday added while a clock runs
// moving its due date (trigger → outbox signal → recompute), pause/resume, stop and cancel ending
// the process, an association moved to another calendar.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxActivities } from '../../../activities/outbox';
import { createSlaClockActivities } from '../../../activities/sla-clocks';
import { getOutboxRow } from '../../../db/outbox';
import { slaClockStateQuery } from '../../../workflows/sla-clock';
import { client, useTestApp } from '../../support/app';
import { seedCalendarTenant } from '../../support/calendars';
import { eventually } from '../../support/ceremony';
import { createAlwaysOpenCalendar, floorMinute, MINUTE } from '../../support/sla-clocks';
import { startTestWorker, testDispatcher, type TestWorker } from '../../support/temporal';

const CLOCKS = '/api/sla-clocks';
const HOUR = 60 * MINUTE;

describe('slaClock process (real Temporal server, outbox dispatcher)', () => {
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
    await createAlwaysOpenCalendar(ctx, t.asOwner, 'OTHER', 'other');
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await worker?.stop();
  });

  const start = async (body: Record<string, unknown>) => {
    const r = await api.post(CLOCKS, t.asOwner, { processCalendarKey: 'always', subject: { kind: 'ticket', id: 'P-1' }, ...body });
    expect(r.status, r.text).toBe(201);
    return r.json as { id: string; dueAt: string; startedAt: string };
  };
  const read = async (id: string) => (await api.get(`${CLOCKS}/${id}`, t.asOwner)).json;
  const handleOf = (id: string) => worker.client.workflow.getHandle(`sla:${t.id}:${id}`);
  const running = (id: string) => eventually(() => getOutboxRow(ctx.db.db, 'SLA', t.id, id), (row) => row?.state === 'STARTED');

  it('records the 50 % and 75 % warnings and the breach at their business instants, then ends (BREACHED, outbox row CLOSED)', async () => {
    const startedAt = floorMinute(Date.now()) - 3 * MINUTE;
    const clock = await start({ receivedAt: new Date(startedAt).toISOString(), budget: { minutes: 2 } });
    expect(clock.dueAt).toBe(new Date(startedAt + 2 * MINUTE).toISOString());
    // The dispatcher starts the workflow after the API answered: until then there is no run to
    // ask for a result (a clock already past its budget may even end, CLOSED, before we look).
    await eventually(() => getOutboxRow(ctx.db.db, 'SLA', t.id, clock.id), (row) => row?.state === 'STARTED' || row?.state === 'CLOSED');
    const result = await handleOf(clock.id).result();
    expect(result).toEqual({ state: 'BREACHED', nextAt: null, finished: true });
    const done = await read(clock.id);
    expect(done).toMatchObject({ state: 'BREACHED', breachedAt: clock.dueAt, remainingBusinessMinutes: 0 });
    expect(done.warnings.map((w: { percent: number; at: string }) => [w.percent, w.at])).toEqual([
      [50, new Date(startedAt + MINUTE).toISOString()],
      [75, new Date(startedAt + 1.5 * MINUTE).toISOString()],
    ]);
    expect(done.history.map((e: { kind: string }) => e.kind)).toEqual(['started', 'warning', 'warning', 'breached']);
    expect(await getOutboxRow(ctx.db.db, 'SLA', t.id, clock.id)).toMatchObject({ state: 'CLOSED' });
  });

  it('a holiday added while the clock runs moves its due date (one closed day: 24 h later) and is in its history', async () => {
    const clock = await start({ budget: { days: 3 } }); // 3 × 480 business minutes: 24 h on a calendar open around the clock
    await running(clock.id);
    const tomorrow = new Date(Date.parse(clock.startedAt) + 24 * HOUR).toISOString().slice(0, 10);
    const holiday = await api.post('/api/business-calendars/ALWAYS/locations/UTC/holidays', t.asOwner, { date: tomorrow, name: 'Closed all day' });
    expect(holiday.status, holiday.text).toBe(201);
    // The recompute that moved the due date: a rules version change that leaves it where it was
    // also records `recomputed`, and a suite run once read such an entry (due date unmoved) here.
    type Recomputed = { kind: string; detail: { dueAt: string } };
    const movedEntry = (c: { history: Recomputed[] }) => c.history.find((e) => e.kind === 'recomputed' && e.detail.dueAt !== clock.dueAt);
    const moved = await eventually(() => read(clock.id), (c) => movedEntry(c) !== undefined);
    expect(Date.parse(moved.dueAt) - Date.parse(clock.dueAt)).toBe(24 * HOUR);
    expect(movedEntry(moved)!.detail).toMatchObject({ dueAt: moved.dueAt, calendarChanged: false });
    expect(await handleOf(clock.id).query(slaClockStateQuery)).toMatchObject({ state: 'RUNNING', finished: false });
    await api.del(`/api/business-calendars/ALWAYS/locations/UTC/holidays/${holiday.json.id}`, t.asOwner);
    await api.del(`${CLOCKS}/${clock.id}`, t.asOwner);
  });

  it('pause and resume reach the process; the due date moves by exactly the time paused (open around the clock)', async () => {
    const clock = await start({ receivedAt: new Date(floorMinute(Date.now())).toISOString(), budget: { minutes: 60 } });
    await running(clock.id);
    const paused = await api.post(`${CLOCKS}/${clock.id}/pause`, t.asOwner);
    expect(paused.json.state).toBe('PAUSED');
    await eventually(() => handleOf(clock.id).query(slaClockStateQuery), (p) => p?.state === 'PAUSED' && p.nextAt === null);
    const resumed = await api.post(`${CLOCKS}/${clock.id}/resume`, t.asOwner);
    const at = (kind: string) => Date.parse(resumed.json.history.find((e: { kind: string }) => e.kind === kind).at);
    expect(Date.parse(resumed.json.dueAt) - Date.parse(clock.dueAt)).toBe(at('resumed') - at('paused'));
    const progress = await eventually(() => handleOf(clock.id).query(slaClockStateQuery), (p) => p?.state === 'RUNNING');
    expect(Date.parse(progress!.nextAt!)).toBeGreaterThan(at('resumed'));
    const signals = await eventually(
      () => ctx.db.sql<{ state: string }[]>`select state from outbox where business_key = ${clock.id} and verb = 'signal'`,
      (rows) => rows.length === 2 && rows.every((r) => r.state === 'DELIVERED'),
    );
    expect(signals).toHaveLength(2);
    await api.del(`${CLOCKS}/${clock.id}`, t.asOwner);
  });

  it('stop (MET) and DELETE (CANCELLED) end the process and close its outbox row', async () => {
    const met = await start({ budget: { minutes: 60 } });
    const cancelled = await start({ budget: { minutes: 60 } });
    await running(met.id);
    await running(cancelled.id);
    expect((await api.post(`${CLOCKS}/${met.id}/stop`, t.asOwner)).json.state).toBe('MET');
    expect((await api.del(`${CLOCKS}/${cancelled.id}`, t.asOwner)).json.state).toBe('CANCELLED');
    expect(await handleOf(met.id).result()).toMatchObject({ state: 'MET', finished: true });
    expect(await handleOf(cancelled.id).result()).toMatchObject({ state: 'CANCELLED', finished: true });
    expect(await getOutboxRow(ctx.db.db, 'SLA', t.id, met.id)).toMatchObject({ state: 'CLOSED' });
  });

  it('an association moved to another calendar recomputes its running clocks on that calendar', async () => {
    await createAlwaysOpenCalendar(ctx, t.asOwner, 'MOVER', 'mover');
    const clock = await api.post(CLOCKS, t.asOwner, { processCalendarKey: 'mover', budget: { minutes: 60 }, subject: { kind: 'ticket', id: 'M-1' } });
    await running(clock.json.id);
    expect((await api.put('/api/process-calendars/mover', t.asOwner, { calendarCode: 'OTHER' })).status).toBe(200);
    const moved = await eventually(() => read(clock.json.id), (c) => c.history.some((e: { kind: string }) => e.kind === 'recomputed'));
    expect(moved.calendarCode).toBe('OTHER');
    expect(moved.history.find((e: { kind: string }) => e.kind === 'recomputed').detail).toMatchObject({ calendarChanged: true, dueAt: clock.json.dueAt });
    await api.del(`${CLOCKS}/${clock.json.id}`, t.asOwner);
  });
});
