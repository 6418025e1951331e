// Records slaClockWaiter for the replay corpus: a business process that starts an SLA clock
// through the platform activity and waits with the platform's awaitSlaClockEvent for its 75 %
// warning and its breach (signals delivered by the outbox dispatcher), once while they arrive and
// once after they all arrived before it waited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app';
import { seedCalendarTenant } from '../../support/calendars';
import { eventually } from '../../support/ceremony';
import { openWaiterWorld, type WaiterWorld } from '../../support/sla-clock-waiter';
import { createAlwaysOpenCalendar, floorMinute, MINUTE } from '../../support/sla-clocks';
import { releaseSignal } from '../../support/workflows/sla-clock-waiter';
import { saveHistory } from './save-history';

describe('record: slaClockWaiter', () => {
  const ctx = useTestApp();
  let world: WaiterWorld;
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;

  beforeAll(async () => {
    world = await openWaiterWorld(ctx);
    t = await seedCalendarTenant(ctx);
    await createAlwaysOpenCalendar(ctx, t.asOwner, 'ALWAYS', 'always');
  });
  afterAll(async () => {
    await world?.stop();
  });

  const start = (receivedAt: number, held = false) =>
    world.startWaiter({
      start: { tenantId: t.id, processCalendarKey: 'always', receivedAt: new Date(receivedAt).toISOString(), budget: { days: 0, minutes: 2 }, subject: { kind: 'ticket', id: 'R-1' } },
      waitFor: [{ kinds: ['warning'], percent: 75 }, { kinds: ['breached', 'met'] }],
      wait: '10 minutes',
      held,
    });

  it('warned, then breached, while it waits', async () => {
    const waiter = await start(floorMinute(Date.now()) - MINUTE);
    expect((await waiter.result()).events.map((e) => e?.kind)).toEqual(['warning', 'breached']);
    await saveHistory(world.platform.client, { workflowId: waiter.workflowId }, 'warned-then-breached');
  });

  it('heard before it waited', async () => {
    const waiter = await start(floorMinute(Date.now()) - 3 * MINUTE, true);
    await eventually(
      () => ctx.db.sql<{ state: string }[]>`select state from outbox where workflow_id = ${waiter.workflowId} and signal_name = 'SlaClockEvent'`,
      (rows) => rows.length === 3 && rows.every((r) => r.state === 'DELIVERED'),
    );
    await waiter.signal(releaseSignal);
    expect((await waiter.result()).events.map((e) => e?.kind)).toEqual(['warning', 'breached']);
    await saveHistory(world.platform.client, { workflowId: waiter.workflowId }, 'heard-before-waiting');
  });
});
