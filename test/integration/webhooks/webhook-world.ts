// What the webhook tests share: an app whose settings let deliveries reach the local receiver
// stand-in (http, 127.0.0.0/8) with a fast retry schedule and no jitter; a platform worker
// (the composition root's activities) and an outbox dispatcher woken by NOTIFY; helpers to create
// an endpoint the receiver trusts and to read the delivery log.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { AppDeps } from '../../../api/deps';
import type { Settings } from '../../../domain/settings';
import { createActivities } from '../../../workers/worker-activities';
import { client, useTestApp, type TestContext, type Who } from '../../support/app';
import { seedTenant } from '../../support/fixtures';
import { startTestWorker, testDispatcher, type TestWorker } from '../../support/temporal';
import type { WebhookReceiver } from '../../stand-ins/webhook-receiver/server';

export const WEBHOOK_SETTINGS: Partial<Settings> = {
  'webhooks.allow-http': true,
  'webhooks.allow-private-networks': ['127.0.0.0/8'],
  'webhooks.retry-schedule': [100, 100, 100, 100],
  'webhooks.retry-jitter': 0,
  'public.base-url': 'https://platform.example.com',
};

export function useWebhookApp(overrides: Partial<Settings> & { deps?: Partial<AppDeps> } = {}): TestContext {
  return useTestApp({ 'secrets.master-key': randomBytes(32), ...WEBHOOK_SETTINGS, ...overrides });
}

export interface DeliveryWorld {
  worker: TestWorker;
  stop(): Promise<void>;
}

/** The platform's activities on a worker of their own (sharing the app's settings object) and a dispatcher of WEBHOOKS rows. */
export async function startDeliveryWorld(ctx: TestContext, capabilities: string[] = ['WEBHOOKS']): Promise<DeliveryWorld> {
  const worker = await startTestWorker(createActivities({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger, s3: ctx.deps.s3 }));
  const dispatcher = testDispatcher(ctx, worker, capabilities);
  await dispatcher.start();
  return {
    worker,
    async stop() {
      await dispatcher.stop();
      await worker.stop();
    },
  };
}

/** A tenant with its owner (who administers webhooks) and a member who is no owner. */
export async function seedWebhookTenant(ctx: TestContext, opts: { subscribe?: string[]; grants?: Array<{ user: string; code: string; level: 'read' | 'read-write' }> } = {}) {
  const t = await seedTenant(ctx, { members: ['member', ...(opts.grants ?? []).map((g) => g.user).filter((u) => u !== 'member')], ...opts });
  return { ...t, member: t.as('member') };
}

/** An endpoint at the receiver's `path`, the receiver trusting its secret. */
export async function createEndpoint(ctx: TestContext, who: Who, receiver: WebhookReceiver, path: string, body: Record<string, unknown> = {}) {
  const r = await client(ctx).post('/api/webhook-endpoints', who, { url: receiver.url(path), ...body });
  expect(r.status, r.text).toBe(201);
  receiver.trust(path, r.json.secret);
  return r.json as { id: string; secret: string; url: string };
}

export interface DeliveryLogItem {
  id: string;
  state: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  failure: string | null;
  attemptCount: number;
  replayOf: string | null;
  nextAttemptAt: string | null;
  event: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
  attempts: Array<{ attempt: number; attemptedAt: string; statusCode: number | null; durationMs: number; responseBody: string | null; error: string | null; nextAttemptAt: string | null }>;
}

export async function deliveryLog(ctx: TestContext, who: Who, endpointId: string): Promise<DeliveryLogItem[]> {
  const r = await client(ctx).get(`/api/webhook-endpoints/${endpointId}/deliveries?limit=200`, who);
  expect(r.status, r.text).toBe(200);
  return r.json.items;
}

/**
 * Polls the delivery log until `done` holds for it (deliveries settle asynchronously). The deadline
 * only turns a hang into a message: on a loaded machine a worker's first task can take a minute.
 */
export async function logUntil(ctx: TestContext, who: Who, endpointId: string, done: (items: DeliveryLogItem[]) => boolean, timeoutMs = 150_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = await deliveryLog(ctx, who, endpointId);
    if (done(items)) return items;
    if (Date.now() > deadline) throw new Error(`delivery log never reached the state: ${JSON.stringify(items).slice(0, 3000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const settled = (items: DeliveryLogItem[], count = 1) => items.length >= count && items.every((d) => d.state !== 'PENDING');
