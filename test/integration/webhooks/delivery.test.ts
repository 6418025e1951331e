// Deliveries through the real path (docs/webhooks.md "Delivery"): the outbox row the test route
// writes, the dispatcher, the webhookDelivery process on a real worker, the HTTP sender, and a
// receiver that verifies every signature with the standardwebhooks package.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookSender } from '../../../integrations/webhooks/http-sender';
import { attemptWebhookDelivery } from '../../../services/webhooks/attempt-delivery';
import { client } from '../../support/app';
import { expectProblem } from '../../support/fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../../stand-ins/webhook-receiver/server';
import { createEndpoint, deliveryLog, logUntil, seedWebhookTenant, settled, startDeliveryWorld, useWebhookApp, type DeliveryWorld } from './webhook-world';

const ctx = useWebhookApp();
const api = client(ctx);
let receiver: WebhookReceiver;
let world: DeliveryWorld;
let t: Awaited<ReturnType<typeof seedWebhookTenant>>;
let paths = 0;
const nextPath = (label: string) => `/${label}-${++paths}`;
const sendTest = async (endpointId: string) => {
  const r = await api.post(`/api/webhook-endpoints/${endpointId}/test`, t.asOwner);
  expect(r.status, r.text).toBe(202);
  return r.json as { id: string };
};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  world = await startDeliveryWorld(ctx);
  t = await seedWebhookTenant(ctx);
});
afterAll(async () => {
  await world?.stop();
  await receiver?.close();
});

describe('webhook delivery', () => {
  it('a test event arrives signed (Standard Webhooks), with the event id as webhook-id and a small payload; the log shows the attempt', async () => {
    const path = nextPath('ok');
    receiver.script(path, () => ({ status: 200, body: 'thanks' }));
    const e = await createEndpoint(ctx, t.asOwner, receiver, path);
    await sendTest(e.id);
    const [got] = await receiver.next(path, 1);
    expect(got!.verifiedBy).toEqual([0]);
    expect(got!.payload).toEqual({ type: 'webhook.test', timestamp: expect.any(String), data: { endpointId: e.id, link: `https://platform.example.com/api/webhook-endpoints/${e.id}` } });
    expect(got!.headers['content-type']).toBe('application/json');
    expect(Math.abs(Number(got!.timestamp) - Date.now() / 1000)).toBeLessThan(300);
    const [item] = await logUntil(ctx, t.asOwner, e.id, settled);
    expect(item).toMatchObject({ state: 'SUCCEEDED', attemptCount: 1, failure: null, nextAttemptAt: null });
    expect(item!.event.id).toBe(got!.id);
    expect(item!.attempts).toEqual([{ attempt: 1, attemptedAt: expect.any(String), statusCode: 200, durationMs: expect.any(Number), responseBody: 'thanks', error: null, nextAttemptAt: null }]);
    // The process ends by closing its outbox row.
    expect(await world.worker.client.workflow.getHandle(`webhooks:${t.id}:${item!.id}`).result()).toBe('SUCCEEDED');
    const [outbox] = await ctx.db.sql`select state from outbox where business_key = ${item!.id}`;
    expect(outbox!.state).toBe('CLOSED');
  });

  it('a receiver that fails twice then succeeds gets three attempts with one webhook-id; the failure streak ends with the success', async () => {
    const path = nextPath('flaky');
    receiver.script(path, (n) => (n <= 2 ? { status: 500, body: `boom ${n}` } : { status: 204 }));
    const e = await createEndpoint(ctx, t.asOwner, receiver, path);
    await sendTest(e.id);
    const got = await receiver.next(path, 3);
    expect(new Set(got.map((d) => d.id)).size).toBe(1);
    expect(got.every((d) => d.verifiedBy.length === 1)).toBe(true);
    expect(new Set(got.map((d) => d.body)).size).toBe(1);
    const [item] = await logUntil(ctx, t.asOwner, e.id, settled);
    expect(item).toMatchObject({ state: 'SUCCEEDED', attemptCount: 3 });
    expect(item!.attempts.map((a) => [a.attempt, a.statusCode, a.responseBody])).toEqual([
      [1, 500, 'boom 1'],
      [2, 500, 'boom 2'],
      [3, 204, ''],
    ]);
    expect(item!.attempts[0]!.nextAttemptAt).not.toBeNull();
    expect((await api.get(`/api/webhook-endpoints/${e.id}`, t.asOwner)).json.failingSince).toBeNull();
  });

  it('410 Gone fails the delivery and disables the endpoint, saying why; a test then answers 409', async () => {
    const path = nextPath('gone');
    receiver.script(path, () => ({ status: 410 }));
    const e = await createEndpoint(ctx, t.asOwner, receiver, path);
    await sendTest(e.id);
    const [item] = await logUntil(ctx, t.asOwner, e.id, settled);
    expect(item).toMatchObject({ state: 'FAILED', attemptCount: 1, failure: expect.stringContaining('410') });
    expect(receiver.received(path)).toHaveLength(1);
    const endpoint = (await api.get(`/api/webhook-endpoints/${e.id}`, t.asOwner)).json;
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('410 Gone'), disabledAt: expect.any(String) });
    expectProblem(await api.post(`/api/webhook-endpoints/${e.id}/test`, t.asOwner), 409, 'webhook-endpoint-disabled');
  });

  it('a replay after re-enabling delivers the same event again under the same webhook-id', async () => {
    const path = nextPath('replay');
    receiver.script(path, (n) => (n === 1 ? { status: 410 } : { status: 202 }));
    const e = await createEndpoint(ctx, t.asOwner, receiver, path);
    await sendTest(e.id);
    const [first] = await logUntil(ctx, t.asOwner, e.id, settled);
    expect((await api.call('PATCH', `/api/webhook-endpoints/${e.id}`, t.asOwner, { enabled: true })).status).toBe(200);
    const replay = await api.post(`/api/webhook-deliveries/${first!.id}/replay`, t.asOwner);
    expect(replay.status, replay.text).toBe(202);
    const got = await receiver.next(path, 2);
    expect(got[1]!.id).toBe(got[0]!.id);
    const items = await logUntil(ctx, t.asOwner, e.id, (i) => settled(i, 2));
    expect(items.map((d) => [d.state, d.replayOf])).toEqual([
      ['SUCCEEDED', first!.id],
      ['FAILED', null],
    ]);
  });

  it.each([429, 503])('%i with Retry-After: the next attempt waits at least as long as the receiver asked', async (status) => {
    const path = nextPath('busy');
    receiver.script(path, (n) => (n === 1 ? { status, headers: { 'Retry-After': '2' } } : { status: 200 }));
    const e = await createEndpoint(ctx, t.asOwner, receiver, path);
    await sendTest(e.id);
    const [item] = await logUntil(ctx, t.asOwner, e.id, settled);
    const [a1, a2] = item!.attempts;
    expect(a1).toMatchObject({ statusCode: status });
    expect(new Date(a1!.nextAttemptAt!).getTime() - new Date(a1!.attemptedAt).getTime()).toBeGreaterThanOrEqual(2_000);
    expect(new Date(a2!.attemptedAt).getTime()).toBeGreaterThanOrEqual(new Date(a1!.nextAttemptAt!).getTime());
    expect(item!.state).toBe('SUCCEEDED');
  });

  it('a redirect is a failure and is never followed (to the metadata address, or even to an allowed one); the schedule runs out to FAILED', async () => {
    const path = nextPath('moved');
    const target = nextPath('target');
    receiver.script(path, (n) => ({ status: 302, headers: { Location: n % 2 ? 'http://169.254.169.254/latest/meta-data/' : receiver.url(target) } }));
    const e = await createEndpoint(ctx, t.asOwner, receiver, path);
    await sendTest(e.id);
    const [item] = await logUntil(ctx, t.asOwner, e.id, settled);
    const attempts = ctx.settings['webhooks.retry-schedule'].length + 1;
    expect(item).toMatchObject({ state: 'FAILED', attemptCount: attempts, failure: expect.stringContaining('retry schedule ran out') });
    expect(item!.attempts.every((a) => a.statusCode === 302)).toBe(true);
    expect(receiver.received(path)).toHaveLength(attempts);
    expect(receiver.received(target)).toHaveLength(0);
    // Failing, but not for disable-after-days yet: still enabled, its streak recorded.
    expect((await api.get(`/api/webhook-endpoints/${e.id}`, t.asOwner)).json).toMatchObject({ enabled: true, failingSince: expect.any(String) });
  });

  it('an endpoint failing every attempt for disable-after-days is disabled at its next failure, and its owners read why', async () => {
    const path = nextPath('dead');
    receiver.script(path, () => ({ status: 503 }));
    const e = await createEndpoint(ctx, t.asOwner, receiver, path);
    await ctx.db.sql`update webhook_endpoints set failing_since = now() - interval '5 days 1 minute' where id = ${e.id}`;
    await sendTest(e.id);
    const [item] = await logUntil(ctx, t.asOwner, e.id, settled);
    expect(item).toMatchObject({ state: 'FAILED', attemptCount: 1, failure: expect.stringContaining('5 day') });
    const endpoint = (await api.get(`/api/webhook-endpoints/${e.id}`, t.asOwner)).json;
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/failed for 5 day\(s\).*HTTP 503/) });
  });

  it('rotation: during the overlap each delivery carries two signatures, one per secret, both valid', async () => {
    const path = nextPath('rotated');
    const e = await createEndpoint(ctx, t.asOwner, receiver, path);
    const rotated = await api.post(`/api/webhook-endpoints/${e.id}/rotate-secret`, t.asOwner);
    receiver.trust(path, rotated.json.secret, e.secret);
    await sendTest(e.id);
    const [got] = await receiver.next(path, 1);
    expect(got!.signature.split(' ')).toHaveLength(2);
    expect(got!.verifiedBy).toEqual([0, 1]);
  });

  it('the destination is checked again at every attempt: an address no longer allowed is refused, recorded and never contacted', async () => {
    const path = nextPath('fenced');
    const e = await createEndpoint(ctx, t.asOwner, receiver, path);
    ctx.settings['webhooks.allow-private-networks'] = [];
    try {
      await sendTest(e.id);
      const [item] = await logUntil(ctx, t.asOwner, e.id, settled);
      expect(item!.state).toBe('FAILED');
      expect(item!.attempts.every((a) => a.statusCode === null && a.error === 'destination refused: loopback')).toBe(true);
    } finally {
      ctx.settings['webhooks.allow-private-networks'] = ['127.0.0.0/8'];
    }
    expect(receiver.received(path)).toHaveLength(0);
  });

  it('no answer (connection refused) is a failed attempt with its reason, never an address', async () => {
    const e = (await api.post('/api/webhook-endpoints', t.asOwner, { url: 'http://127.0.0.1:9/closed' })).json;
    await sendTest(e.id);
    const [item] = await logUntil(ctx, t.asOwner, e.id, settled);
    expect(item!.attempts[0]).toMatchObject({ statusCode: null, error: 'request failed (ECONNREFUSED)', responseBody: null });
    expect(JSON.stringify(await deliveryLog(ctx, t.asOwner, e.id))).not.toContain('127.0.0.1:9');
  });

  it('only the first 4 KiB of an answer are kept', async () => {
    const path = nextPath('verbose');
    receiver.script(path, () => ({ status: 200, body: 'x'.repeat(100_000) }));
    const e = await createEndpoint(ctx, t.asOwner, receiver, path);
    await sendTest(e.id);
    const [item] = await logUntil(ctx, t.asOwner, e.id, settled);
    expect(item!.attempts[0]!.responseBody).toBe('x'.repeat(4096));
  });

  it('an attempt run again after it was recorded (its worker died before reporting) sends nothing and returns what remains of its wait', async () => {
    const path = nextPath('repeat');
    receiver.script(path, () => ({ status: 503, headers: { 'Retry-After': '120' } }));
    const e = await createEndpoint(ctx, t.asOwner, receiver, path);
    const d = await sendTest(e.id);
    await receiver.next(path, 1);
    const [waiting] = await logUntil(ctx, t.asOwner, e.id, (items) => items[0]?.attempts.length === 1);
    const sender = createWebhookSender(ctx.settings);
    const again = await attemptWebhookDelivery({ db: ctx.db.db, settings: ctx.settings, sender }, { tenantId: t.id, deliveryId: d.id, attempt: 1 });
    const remaining = Date.parse(waiting!.nextAttemptAt!) - Date.now();
    expect(again).toMatchObject({ next: 'retry' });
    expect(again.next === 'retry' && again.waitMs).toBeGreaterThanOrEqual(remaining);
    expect(again.next === 'retry' && again.waitMs).toBeLessThanOrEqual(120_000);
    expect(receiver.received(path)).toHaveLength(1);
    expect((await deliveryLog(ctx, t.asOwner, e.id))[0]).toMatchObject({ state: 'PENDING', attemptCount: 1, nextAttemptAt: waiting!.nextAttemptAt });
  });

  it('a deleted endpoint stops its waiting deliveries', async () => {
    const path = nextPath('deleted');
    receiver.script(path, () => ({ status: 500 }));
    const e = await createEndpoint(ctx, t.asOwner, receiver, path);
    const d = await sendTest(e.id);
    await receiver.next(path, 1);
    expect((await api.del(`/api/webhook-endpoints/${e.id}`, t.asOwner)).status).toBe(204);
    const handle = world.worker.client.workflow.getHandle(`webhooks:${t.id}:${d.id}`);
    expect(await handle.result()).toBe('FAILED');
  });
});
