// Records webhookDelivery for the replay corpus through the real path (test route, outbox,
// dispatcher, HTTP sender, the receiver stand-in): a delivery that succeeds after two failed
// attempts (two timers between activities) and one that exhausts its schedule and fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/app';
import { startWebhookReceiver, type WebhookReceiver } from '../../stand-ins/webhook-receiver/server';
import { createEndpoint, logUntil, seedWebhookTenant, settled, startDeliveryWorld, useWebhookApp, type DeliveryWorld } from '../../integration/webhooks/webhook-world';
import { saveHistory } from './save-history';

describe('record: webhookDelivery', () => {
  const ctx = useWebhookApp({ 'webhooks.retry-schedule': [200, 200] });
  const api = client(ctx);
  let receiver: WebhookReceiver;
  let world: DeliveryWorld;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    world = await startDeliveryWorld(ctx);
  });
  afterAll(async () => {
    await world?.stop();
    await receiver?.close();
  });

  const deliver = async (path: string, answer: (n: number) => { status: number }, expected: 'SUCCEEDED' | 'FAILED') => {
    const t = await seedWebhookTenant(ctx);
    receiver.script(path, answer);
    const e = await createEndpoint(ctx, t.asOwner, receiver, path);
    const r = await api.post(`/api/webhook-endpoints/${e.id}/test`, t.asOwner);
    expect(r.status, r.text).toBe(202);
    const [item] = await logUntil(ctx, t.asOwner, e.id, settled);
    expect(item!.state).toBe(expected);
    return `webhooks:${t.id}:${item!.id}`;
  };

  it('succeeded after two failed attempts', async () => {
    const workflowId = await deliver('/flaky', (n) => (n <= 2 ? { status: 500 } : { status: 204 }), 'SUCCEEDED');
    await saveHistory(world.worker.client, { workflowId }, 'succeeded-after-retries');
  });

  it('failed when the schedule ran out', async () => {
    const workflowId = await deliver('/down', () => ({ status: 500 }), 'FAILED');
    await saveHistory(world.worker.client, { workflowId }, 'failed-after-schedule');
  });
});
