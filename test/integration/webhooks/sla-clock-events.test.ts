// sla.clock.warning, sla.clock.breached and sla.clock.met from real clocks: the slaClock process
// on the real Temporal server records the warnings and the breach, a stop before the due date
// meets the clock, and each reaches a subscribed endpoint signed (standardwebhooks verifies it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/app';
import { seedCalendarTenant } from '../../support/calendars';
import { createAlwaysOpenCalendar, floorMinute, MINUTE } from '../../support/sla-clocks';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../../stand-ins/webhook-receiver/server';
import { createEndpoint, startDeliveryWorld, useWebhookApp, type DeliveryWorld } from './webhook-world';

const ctx = useWebhookApp();
const api = client(ctx);
const PATH = '/sla';
let receiver: WebhookReceiver;
let world: DeliveryWorld;
let t: Awaited<ReturnType<typeof seedCalendarTenant>>;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  world = await startDeliveryWorld(ctx, ['SLA', 'WEBHOOKS']);
  t = await seedCalendarTenant(ctx);
  await createAlwaysOpenCalendar(ctx, t.asOwner, 'ALWAYS', 'always');
  await createEndpoint(ctx, t.asOwner, receiver, PATH, { eventTypes: ['sla.clock.warning', 'sla.clock.breached', 'sla.clock.met'] });
});
afterAll(async () => {
  await world?.stop();
  await receiver?.close();
});

async function eventsOf(clockId: string, count: number): Promise<ReceivedDelivery[]> {
  for (let n = count; ; n++) {
    const mine = (await receiver.next(PATH, n)).filter((d) => d.payload?.data.clockId === clockId);
    if (mine.length >= count) return mine;
  }
}

const start = async (body: Record<string, unknown>) => {
  const r = await api.post('/api/sla-clocks', t.asOwner, { processCalendarKey: 'always', subject: { kind: 'ticket', id: 'T-1' }, ...body });
  expect(r.status, r.text).toBe(201);
  return r.json as { id: string; dueAt: string };
};

describe('SLA clock events', () => {
  it('a clock past its budget sends the 50 % and 75 % warnings and the breach, at their business instants', async () => {
    const startedAt = floorMinute(Date.now()) - 3 * MINUTE;
    const clock = await start({ receivedAt: new Date(startedAt).toISOString(), budget: { minutes: 2 } });
    const got = await eventsOf(clock.id, 3);
    expect(got.every((d) => d.verifiedBy.length === 1)).toBe(true);
    const byType = got.map((d) => [d.payload!.type, d.payload!.data.percent, d.payload!.data.reachedAt]).sort((a, b) => String(a[2]).localeCompare(String(b[2])));
    expect(byType).toEqual([
      ['sla.clock.warning', 50, new Date(startedAt + MINUTE).toISOString()],
      ['sla.clock.warning', 75, new Date(startedAt + 1.5 * MINUTE).toISOString()],
      ['sla.clock.breached', 100, clock.dueAt],
    ]);
    const breached = got.find((d) => d.payload!.type === 'sla.clock.breached')!;
    expect(breached.payload!.data).toEqual({
      clockId: clock.id,
      subject: { kind: 'ticket', id: 'T-1' },
      processCalendarKey: 'always',
      state: 'BREACHED',
      percent: 100,
      reachedAt: clock.dueAt,
      dueAt: clock.dueAt,
      link: `https://platform.example.com/api/sla-clocks/${clock.id}`,
    });
  });

  it('a clock stopped before its due date sends sla.clock.met, and a pause sends nothing', async () => {
    const clock = await start({ budget: { days: 1 } });
    expect((await api.post(`/api/sla-clocks/${clock.id}/pause`, t.asOwner)).status).toBe(200);
    expect((await api.post(`/api/sla-clocks/${clock.id}/resume`, t.asOwner)).status).toBe(200);
    const stop = await api.post(`/api/sla-clocks/${clock.id}/stop`, t.asOwner);
    expect(stop.status, stop.text).toBe(200);
    const [met] = await eventsOf(clock.id, 1);
    expect(met!.payload).toMatchObject({ type: 'sla.clock.met', data: { clockId: clock.id, state: 'MET', percent: null } });
    const rows = await ctx.db.sql<{ type: string }[]>`select type from webhook_events where tenant_id = ${t.id} and data->>'clockId' = ${clock.id}`;
    expect(rows.map((r) => r.type)).toEqual(['sla.clock.met']);
  });
});
