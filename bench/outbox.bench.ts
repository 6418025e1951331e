/**
 * bench/outbox: commit-to-delivery latency of a signal, through the outbox against the baseline of
 * sending it straight from the committing process (what the webhook and the registry did before
 * signals became outbox rows), side by side in one run.
 *
 * - direct: commit the business transaction, then `handle.signal()`; latency = commit → Temporal's ack.
 * - outbox: commit the business transaction with its signal row; a running dispatcher (woken by
 *   NOTIFY) delivers it; latency = commit → Temporal's ack of the dispatcher's signal.
 *
 * Both sides signal the same kind of running workflow on the same Temporal dev server, one signal at
 * a time, in alternating blocks so drift on a shared machine hits both. Real PostgreSQL (embedded,
 * durable settings, or DATABASE_URL's server) and the Temporal CLI dev server (or TEMPORAL_ADDRESS).
 * Goal: the outbox's p50 at most GOAL_RATIO x the direct send's p50 (one NOTIFY wake-up and one
 * claim transaction on top of the same signal). Prints exactly one JSON line. Bounded: ~1 min.
 *
 * Run: npx tsx bench/outbox.bench.ts
 */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { createDatabase } from '../db/client';
import { enqueueSignal, enqueueStart, workflowIdFor, type OutboxRow } from '../db/outbox';
import { ProbeProcess } from '../test/support/processes';
import { loadSettings } from '../workers/config';
import { OutboxDispatcher, temporalSignaller, temporalStarter } from '../workers/dispatcher';
import { atMost, report } from './support/goals';
import { startBenchDatabase, startBenchTemporal } from './support/servers';
import { percentile, round } from './support/stats';

const BLOCKS = 10;
const PER_BLOCK = 30;
const WARMUP = 20;
const GOAL_RATIO = 4;
const TASK_QUEUE = 'bench-outbox';
const PROBE = fileURLToPath(new URL('../test/support/workflows/signal-probe.ts', import.meta.url));

const settings = loadSettings({}, { 'log.level': 'error' });
const bench = await startBenchDatabase();
const database = createDatabase(bench.url, { max: 6 });
const temporal = await startBenchTemporal();
const temporalAddress = temporal.address;
const connection = await Connection.connect({ address: temporalAddress });
const client = new Client({ connection });
const native = await NativeConnection.connect({ address: temporalAddress });
const worker = await Worker.create({ connection: native, taskQueue: TASK_QUEUE, workflowsPath: PROBE });
const running = worker.run();

const tenantId = 'bench';
/** Commit instants (performance.now()) and ack instants, by delivery key. */
const committedAt = new Map<string, number>();
const ackedAt = new Map<string, number>();
const signaller = temporalSignaller(client, TASK_QUEUE);
const dispatcher = new OutboxDispatcher({
  database,
  logger: pino({ level: 'error' }),
  startWorkflow: temporalStarter(client, TASK_QUEUE),
  signals: {
    async signal(row: OutboxRow) {
      const sent = await signaller.signal(row);
      ackedAt.set((row.signalArgs![0] as { deliveryKey: string }).deliveryKey, performance.now());
      return sent;
    },
    signalWithStart: (row) => signaller.signalWithStart(row),
  },
  capabilities: ['PROBE'],
  pollMs: settings['dispatcher.poll-ms'],
  batchSize: settings['dispatcher.batch-size'],
  maxAttempts: 3,
  backoffMs: 100,
});
await dispatcher.start();

/** A business row to commit next to the signal: one small insert, like a state change. */
await database.sql`create table bench_state (id uuid primary key, at timestamptz not null default now())`;

async function startProbe(key: string) {
  await database.db.transaction((tx) => enqueueStart(tx, ProbeProcess, { tenantId, key, expect: Number.MAX_SAFE_INTEGER }, { taskQueue: TASK_QUEUE }));
  const handle = client.workflow.getHandle(workflowIdFor('PROBE', tenantId, key));
  for (;;) {
    if (await handle.describe().then(() => true, () => false)) return handle;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function direct(handle: Awaited<ReturnType<typeof startProbe>>): Promise<number> {
  await database.db.transaction((tx) => tx.execute(`insert into bench_state (id) values ('${randomUUID()}')`));
  const t0 = performance.now();
  await handle.signal(ProbeProcess.signals.note.name, { n: 0, deliveryKey: randomUUID() });
  return performance.now() - t0;
}

async function viaOutbox(key: string): Promise<number> {
  const deliveryKey = randomUUID();
  await database.db.transaction(async (tx) => {
    await tx.execute(`insert into bench_state (id) values ('${randomUUID()}')`);
    await enqueueSignal(tx, { capability: 'PROBE', tenantId, businessKey: key }, ProbeProcess.signals.note, { n: 0, deliveryKey });
  });
  committedAt.set(deliveryKey, performance.now());
  while (!ackedAt.has(deliveryKey)) await new Promise((r) => setImmediate(r));
  return ackedAt.get(deliveryKey)! - committedAt.get(deliveryKey)!;
}


const samples = { direct: [] as number[], outbox: [] as number[] };
const warm = await startProbe('warm');
for (let i = 0; i < WARMUP; i++) {
  await direct(warm);
  await viaOutbox('warm');
}
for (let b = 0; b < BLOCKS; b++) {
  const key = `block-${b}`;
  const handle = await startProbe(key);
  // The side that goes first alternates per block.
  const sides = b % 2 === 0 ? (['direct', 'outbox'] as const) : (['outbox', 'direct'] as const);
  for (const side of sides) {
    for (let i = 0; i < PER_BLOCK; i++) samples[side].push(side === 'direct' ? await direct(handle) : await viaOutbox(key));
  }
  await handle.terminate('bench block done');
}

const summary = (xs: number[]) => ({ p50: round(percentile(xs, 50)), p99: round(percentile(xs, 99)) });
const d = summary(samples.direct);
const o = summary(samples.outbox);
const ratio = { p50: round(o.p50 / d.p50), p99: round(o.p99 / d.p99) };
report(
  'outbox',
  { unit: 'ms from commit to Temporal ack', samples: samples.direct.length, baseline: { name: 'direct signal after commit', ...d }, outbox: o, ratio },
  [atMost('outbox p50 / direct p50', ratio.p50, GOAL_RATIO, `direct p50 ${d.p50} ms`)],
);

await dispatcher.stop();
await warm.terminate('bench done').catch(() => {});
worker.shutdown();
await running;
await native.close();
await connection.close();
await database.sql.end();
await bench.stop();
await temporal.stop();
