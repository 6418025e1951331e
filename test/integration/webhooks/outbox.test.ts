// Events are written in the transaction that makes them true (docs/webhooks.md "Written with the
// fact"): the trigger's event, one delivery per enabled endpoint that wants the type and one outbox
// start row per delivery are there inside the transaction, and a rollback leaves none of them.
import type { TransactionSql } from 'postgres';
import { describe, expect, it } from 'vitest';
import { client } from '../../support/app';
import { seedTrackedCall } from '../../support/phone';
import { seedWebhookTenant, useWebhookApp } from './webhook-world';

const ctx = useWebhookApp();
const api = client(ctx);
const BASE = '/api/webhook-endpoints';
const URL_OK = 'http://127.0.0.1:9/hook';

class Rollback extends Error {}

const countFor = async (tenantId: string) => {
  const [row] = await ctx.db.sql<{ events: number; deliveries: number; starts: number }[]>`
    select (select count(*)::int from webhook_events where tenant_id = ${tenantId}) as events,
           (select count(*)::int from webhook_deliveries where tenant_id = ${tenantId}) as deliveries,
           (select count(*)::int from outbox where tenant_id = ${tenantId} and capability = 'WEBHOOKS') as starts`;
  return row!;
};

describe('webhook events on the outbox', () => {
  it('one event per fact, one delivery and one process start per (event, endpoint), all in the fact\'s transaction; a rollback leaves nothing', async () => {
    const t = await seedWebhookTenant(ctx);
    const everything = (await api.post(BASE, t.asOwner, { url: `${URL_OK}/all` })).json;
    const calls = (await api.post(BASE, t.asOwner, { url: `${URL_OK}/calls`, eventTypes: ['phone.call.ended'] })).json;
    await api.post(BASE, t.asOwner, { url: `${URL_OK}/documents`, eventTypes: ['document.ready'] });
    const off = (await api.post(BASE, t.asOwner, { url: `${URL_OK}/off` })).json;
    expect((await api.call('PATCH', `${BASE}/${off.id}`, t.asOwner, { enabled: false })).status).toBe(200);
    const other = await seedWebhookTenant(ctx);
    await api.post(BASE, other.asOwner, { url: `${URL_OK}/other` });

    const call = await seedTrackedCall(ctx, t.id, 'IN_PROGRESS');
    const end = (sql: typeof ctx.db.sql | TransactionSql) => sql`update phone_calls set status = 'ENDED', ended_reason = 'customer-ended-call', ended_at = now() where id = ${call.id}`;

    await ctx.db.sql
      .begin(async (sql) => {
        await end(sql);
        const [inside] = await sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where tenant_id = ${t.id}`;
        expect(inside!.n).toBe(2);
        throw new Rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof Rollback)) throw err;
      });
    expect(await countFor(t.id)).toEqual({ events: 0, deliveries: 0, starts: 0 });

    await end(ctx.db.sql);
    const events = await ctx.db.sql<{ id: string; type: string }[]>`select id, type from webhook_events where tenant_id = ${t.id}`;
    expect(events.map((e) => e.type)).toEqual(['phone.call.ended']);
    const deliveries = await ctx.db.sql<{ id: string; endpoint_id: string; event_id: string }[]>`
      select id, endpoint_id, event_id from webhook_deliveries where tenant_id = ${t.id} order by endpoint_id`;
    expect(deliveries.map((d) => d.endpoint_id)).toEqual([everything.id, calls.id].sort());
    expect(deliveries.every((d) => d.event_id === events[0]!.id)).toBe(true);
    const starts = await ctx.db.sql<{ business_key: string; verb: string; workflow_type: string; workflow_id: string }[]>`
      select business_key, verb, workflow_type, workflow_id from outbox where tenant_id = ${t.id} and capability = 'WEBHOOKS' order by business_key`;
    expect(starts).toEqual(
      deliveries
        .map((d) => ({ business_key: d.id, verb: 'start', workflow_type: 'webhookDelivery', workflow_id: `webhooks:${t.id}:${d.id}` }))
        .sort((a, b) => a.business_key.localeCompare(b.business_key)),
    );
    // Another tenant's endpoint wants every type, yet hears nothing of this tenant's call.
    expect(await countFor(other.id)).toEqual({ events: 0, deliveries: 0, starts: 0 });
  });
});
