/**
 * bench/webhooks: 1,000 events fanned out to 3 local endpoints (3,000 deliveries) through the real
 * path: a call's terminal status committed (its trigger writes the event, the deliveries and their
 * outbox start rows), the outbox dispatcher (woken by NOTIFY), one webhookDelivery process per
 * delivery on a worker with the composition root's activities, the HTTP sender, three receivers.
 *
 * - first attempt: event commit → the receiver has the delivery's first request.
 * - baseline, the outbox's own: event commit → Temporal acknowledged the start of that delivery's
 *   workflow (the dispatcher's start, timed in the same run for the same deliveries).
 * - lost: (event, endpoint) pairs that never arrived or whose delivery did not SUCCEED. Goal: 0.
 *
 * Events are committed one per transaction at WEBHOOK_BENCH_RATE per second (default 20), so the
 * latencies are the path's, not a backlog's. Real PostgreSQL (embedded, or DATABASE_URL's server)
 * and the Temporal dev server (in memory, or TEMPORAL_ADDRESS). Prints one JSON line; exits 1 when
 * a goal is missed.
 *
 * Run: npx tsx bench/webhooks.bench.ts
 */
import { DefaultLogger, makeTelemetryFilterString, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createDatabase } from '../db/client';
import type { OutboxRow } from '../db/outbox';
import { createWebhookEndpoint } from '../services/webhooks/endpoints';
import { loadSettings } from '../workers/config';
import { OutboxDispatcher, temporalStarter } from '../workers/dispatcher';
import { createActivities } from '../workers/worker-activities';
import { workflowsPath } from '../workers/worker-process';
import { buildIdOf, promoteBuild, workerDeploymentOptionsFor } from '../workers/worker-versioning';
import { atLeast, exactly, report } from './support/goals';
import { seedTenant } from './support/seed';
import { startBenchDatabase, startBenchTemporal } from './support/servers';
import { latencySummary, percentile, round } from './support/stats';

const EVENTS = Number(process.env.WEBHOOK_BENCH_EVENTS ?? 1_000);
const ENDPOINTS = 3;
const RATE = Number(process.env.WEBHOOK_BENCH_RATE ?? 20);
/** Nothing moved (no start, first arrival or settled delivery) for this long: whatever is missing is lost. */
const STALL_MS = 180_000;
const TASK_QUEUE = 'bench-webhooks';
const TENANT = 'bench';

const settings = loadSettings({}, {
  'log.level': 'error',
  'secrets.master-key': randomBytes(32),
  'webhooks.allow-http': true,
  'webhooks.allow-private-networks': ['127.0.0.0/8'],
  'temporal.task-queue': TASK_QUEUE,
});
const logger = pino({ level: 'error' });
const bench = await startBenchDatabase();
const temporal = await startBenchTemporal();
const database = createDatabase(bench.url, { max: 16 });
await seedTenant(bench.url, { tenant: TENANT, capabilities: ['PHONE'] });

// Three receivers, each noting when each event first reached it (performance.now(), this process's clock).
const arrivals = Array.from({ length: ENDPOINTS }, () => new Map<string, number>());
let duplicates = 0;
const servers: Server[] = [];
const urls: string[] = [];
for (let i = 0; i < ENDPOINTS; i++) {
  const server = createServer((req, res) => {
    const id = String(req.headers['webhook-id']);
    if (arrivals[i]!.has(id)) duplicates++;
    else arrivals[i]!.set(id, performance.now());
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook-${i}`);
}
for (const url of urls) await createWebhookEndpoint({ db: database.db, settings }, { tenantId: TENANT, userId: 'bench', url, eventTypes: ['phone.call.ended'] });

// The worker (every platform activity, built by the composition root) and the dispatcher.
// The native core's warnings (slow workflow tasks on a loaded machine) go to the logger, not stdout: stdout is the result line.
Runtime.install({ logger: new DefaultLogger('ERROR'), shutdownSignals: [], telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }), forward: {} } } });
const native = await NativeConnection.connect({ address: temporal.address });
// Versioned as in production (workers/worker-versioning.ts): a deployment of its own, this build current.
const version = { deploymentName: 'bench-webhooks', buildId: buildIdOf({ 'temporal.build-id': undefined }) };
const worker = await Worker.create({
  connection: native,
  taskQueue: TASK_QUEUE,
  workflowsPath,
  activities: createActivities({ db: database.db, settings, logger }),
  workerDeploymentOptions: workerDeploymentOptionsFor(version),
});
const running = worker.run();
const connection = await Connection.connect({ address: temporal.address });
await promoteBuild(connection.workflowService, { namespace: settings['temporal.namespace'], version });
const client = new Client({ connection });
const start = temporalStarter(client, TASK_QUEUE);
/** When Temporal acknowledged each delivery's workflow start, by delivery id. */
const startedAt = new Map<string, number>();
const dispatcher = new OutboxDispatcher({
  database,
  logger,
  startWorkflow: async (row: OutboxRow) => {
    const runId = await start(row);
    if (!startedAt.has(row.businessKey)) startedAt.set(row.businessKey, performance.now());
    return runId;
  },
  capabilities: ['WEBHOOKS'],
  pollMs: settings['dispatcher.poll-ms'],
  batchSize: settings['dispatcher.batch-size'],
  parallelBatches: settings['dispatcher.parallel-batches'],
  maxAttempts: settings['dispatcher.max-attempts'],
  backoffMs: settings['dispatcher.backoff-ms'],
});
await dispatcher.start();

// The facts: calls in progress, each ended in its own transaction (the trigger writes its event).
const calls = Array.from({ length: EVENTS + 10 }, () => randomUUID());
await database.sql`
  insert into phone_calls (id, tenant_id, direction, status, business_key, initiated_by)
  select id, ${TENANT}, 'OUTBOUND', 'IN_PROGRESS', id::text, 'bench' from unnest(${calls}::uuid[]) as id`;
const endCall = (id: string) => database.sql`update phone_calls set status = 'ENDED', ended_at = now(), ended_reason = 'customer-ended-call' where id = ${id}`;

const ticker = setInterval(async () => {
  const states = await database.sql`select state, count(*)::int as n from webhook_deliveries group by state`;
  process.stderr.write(`arrived ${arrivals.map((a) => a.size).join('/')}, started ${startedAt.size}, ${states.map((r) => `${r.state} ${r.n}`).join(', ')}\n`);
}, 10_000);
// Warm-up: the first workflow tasks load the bundle; not measured.
for (const id of calls.slice(EVENTS)) await endCall(id);
await until(() => arrivals.every((a) => a.size >= 10), 300_000);

/** Commit instants by call id. */
const committedAt = new Map<string, number>();
const began = performance.now();
const measured = calls.slice(0, EVENTS);
for (let i = 0; i < measured.length; i++) {
  const due = began + (i * 1000) / RATE;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const id = measured[i]!;
  await endCall(id);
  committedAt.set(id, performance.now());
}
const committedIn = (performance.now() - began) / 1000;
// Every delivery settled (its record follows its answer by a transaction), or nothing moves any more.
let progress = -1;
let movedAt = performance.now();
await until(async () => {
  const pending = await pendingDeliveries();
  const now = arrivals.reduce((n, a) => n + a.size, 0) + startedAt.size - pending;
  if (now !== progress) [progress, movedAt] = [now, performance.now()];
  return (pending === 0 && arrivals.every((a) => a.size >= EVENTS + 10)) || performance.now() - movedAt > STALL_MS;
}, 60 * 60_000);

// Event id ↔ call id, delivery id ↔ (event, endpoint).
const rows = await database.sql<{ delivery: string; event: string; call: string; url: string; state: string }[]>`
  select d.id as delivery, e.id as event, e.data->>'callId' as call, p.url, d.state
  from webhook_deliveries d join webhook_events e on e.id = d.event_id join webhook_endpoints p on p.id = d.endpoint_id
  where e.data->>'callId' = any(${measured})`;
const firstAttempt: number[] = [];
const toStart: number[] = [];
let lost = 0;
for (const id of measured) {
  const commit = committedAt.get(id)!;
  const mine = rows.filter((r) => r.call === id);
  for (let i = 0; i < ENDPOINTS; i++) {
    const row = mine.find((r) => r.url === urls[i]);
    const arrived = row ? arrivals[i]!.get(row.event) : undefined;
    if (!row || arrived === undefined || row.state !== 'SUCCEEDED') {
      lost++;
      continue;
    }
    firstAttempt.push(arrived - commit);
    const started = startedAt.get(row.delivery);
    if (started !== undefined) toStart.push(started - commit);
  }
}

clearInterval(ticker);
await dispatcher.stop();
worker.shutdown();
await running;
await native.close();
await connection.close();
for (const s of servers) s.closeAllConnections(), s.close();
await database.close();
await temporal.stop();
await bench.stop();

const first = latencySummary(firstAttempt);
const outbox = latencySummary(toStart);
report(
  'webhooks',
  {
    events: EVENTS,
    endpoints: ENDPOINTS,
    deliveries: EVENTS * ENDPOINTS,
    ratePerSecond: RATE,
    committedInSeconds: round(committedIn, 1),
    commitToFirstAttempt: first,
    baseline: { name: "the outbox's own commit → workflow start, same deliveries", ...outbox },
    overheadP50Ms: round(percentile(firstAttempt, 50) - percentile(toStart, 50)),
    duplicates,
    lost,
  },
  [
    exactly('lost (event, endpoint) pairs', lost, 0, `${EVENTS * ENDPOINTS} deliveries`),
    atLeast('deliveries timed against their start', toStart.length, EVENTS * ENDPOINTS, 'every delivery'),
  ],
);
process.exit();

async function until(done: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  while (!(await done())) {
    if (performance.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function pendingDeliveries(): Promise<number> {
  const [row] = await database.sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where state = 'PENDING'`;
  return row!.n;
}
