// A worker SIGKILLed while a delivery waits for its retry loses nothing: the process is a Temporal
// workflow whose wait is a timer, so the next worker to poll continues it, and the receiver gets
// the retry under the same webhook-id.
import { Client, Connection } from '@temporalio/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envName } from '../../../domain/settings';
import { client } from '../../support/app';
import { servers } from '../../support/servers';
import { testDispatcher } from '../../support/temporal';
import { startWebhookReceiver, type WebhookReceiver } from '../../stand-ins/webhook-receiver/server';
import { createEndpoint, logUntil, seedWebhookTenant, settled, useWebhookApp } from './webhook-world';

const CHILD = fileURLToPath(new URL('./worker-child.ts', import.meta.url));
const taskQueue = `tq-webhook-kill-${randomBytes(4).toString('hex')}`;
const ctx = useWebhookApp({ 'webhooks.retry-schedule': [3_000, 3_000] });
const api = client(ctx);
let receiver: WebhookReceiver;
let connection: Connection;
let temporal: Client;
let dispatcher: ReturnType<typeof testDispatcher>;
const children: ChildProcess[] = [];

/** A worker process on the test's task queue, resolved once it polls. */
async function startWorkerProcess(): Promise<ChildProcess> {
  const s = ctx.settings;
  const env = {
    ...process.env,
    [envName('database.url')]: ctx.db.url,
    [envName('temporal.address')]: servers().temporalAddress,
    [envName('temporal.task-queue')]: taskQueue,
    [envName('secrets.master-key')]: s['secrets.master-key']!.toString('base64'),
    [envName('public.base-url')]: s['public.base-url'],
    [envName('webhooks.allow-http')]: 'true',
    [envName('webhooks.allow-private-networks')]: '127.0.0.0/8',
    [envName('webhooks.retry-schedule')]: '3s,3s',
    [envName('webhooks.retry-jitter')]: '0',
    [envName('log.level')]: 'silent',
  };
  // node itself (not the tsx wrapper), so SIGKILL hits the worker and nothing of it survives.
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => line === 'ready' && resolve());
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
  });
  return child;
}

/** Resolves once the workflow's history holds a started timer. */
async function timerStarted(workflowId: string): Promise<void> {
  const handle = temporal.workflow.getHandle(workflowId);
  for (;;) {
    const { events } = await handle.fetchHistory();
    if (events?.some((event) => event.timerStartedEventAttributes)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  connection = await Connection.connect({ address: servers().temporalAddress });
  temporal = new Client({ connection });
  dispatcher = testDispatcher(ctx, { client: temporal, taskQueue }, ['WEBHOOKS']);
  await dispatcher.start();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await dispatcher?.stop();
  await connection?.close();
  await receiver?.close();
});

describe('a worker killed mid-retry', () => {
  it('loses nothing: the next worker makes the retry, with the same webhook-id', async () => {
    const t = await seedWebhookTenant(ctx);
    receiver.script('/kill', (n) => (n === 1 ? { status: 503, body: 'down for a moment' } : { status: 200 }));
    const e = await createEndpoint(ctx, t.asOwner, receiver, '/kill');
    const first = await startWorkerProcess();
    const sent = await api.post(`/api/webhook-endpoints/${e.id}/test`, t.asOwner);
    expect(sent.status).toBe(202);

    // The first attempt failed and is recorded, with its retry due, and its outcome reached the
    // process, which now waits on its timer. (The row alone is not enough: a worker killed between
    // its commit and its report is the other case, delivery.test.ts's repeated attempt.)
    await receiver.next('/kill', 1);
    const [failedOnce] = await logUntil(ctx, t.asOwner, e.id, (items) => items[0]?.attempts.length === 1);
    expect(failedOnce).toMatchObject({ state: 'PENDING', attemptCount: 1, nextAttemptAt: expect.any(String) });
    await timerStarted(`webhooks:${t.id}:${sent.json.id}`);
    first.kill('SIGKILL');
    await once(first, 'exit');
    expect(receiver.received('/kill')).toHaveLength(1);

    await startWorkerProcess();
    const got = await receiver.next('/kill', 2);
    expect(got[1]!.id).toBe(got[0]!.id);
    expect(got.map((d) => d.verifiedBy)).toEqual([[0], [0]]);
    const [item] = await logUntil(ctx, t.asOwner, e.id, settled);
    expect(item).toMatchObject({ state: 'SUCCEEDED', attemptCount: 2 });
    expect(item!.attempts.map((a) => a.statusCode)).toEqual([503, 200]);
  }, 300_000);
});
