/**
 * bench/outbox-starts: how fast one dispatcher turns a backlog of QUEUED start rows into workflow
 * starts, with one claimed batch at a time (the baseline) against `dispatcher.parallel-batches`
 * batches side by side, in alternating rounds on the same PostgreSQL and Temporal dev server so
 * drift on a shared machine hits both. A probe worker runs, so the server also executes the
 * started workflows, as in production.
 *
 * Each round enqueues OUTBOX_BENCH_BACKLOG rows (default 600) with the dispatcher stopped, starts
 * it, and times until every row is STARTED. Prints exactly one JSON line: starts/s per mode
 * (median over rounds) and the ratio, the median of the rounds' ratios as in the other round-based
 * benches (each round's pair runs back to back, so drift between rounds cancels; the ratio of the
 * two medians, which this bench printed before, pairs rounds that did not run together). Goal:
 * parallel batches >= 1.2 x one batch (1.34x on a quiet machine, 1.9x on a loaded one).
 *
 * Run: npm run bench -- outbox-starts
 */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { createDatabase } from '../db/client';
import { enqueueStart } from '../db/outbox';
import { ProbeProcess } from '../test/support/processes';
import { loadSettings } from '../workers/config';
import { OutboxDispatcher, temporalSignaller, temporalStarter } from '../workers/dispatcher';
import { atLeast, report } from './support/goals';
import { alternateRounds } from './support/order';
import { startBenchDatabase, startBenchTemporal } from './support/servers';
import { median, round } from './support/stats';

const BACKLOG = Number(process.env.OUTBOX_BENCH_BACKLOG ?? 600);
const ROUNDS = Number(process.env.OUTBOX_BENCH_ROUNDS ?? 5);
const TASK_QUEUE = 'bench-outbox-starts';
const GOAL_RATIO = 1.2;
const PROBE = fileURLToPath(new URL('../test/support/workflows/signal-probe.ts', import.meta.url));

const settings = loadSettings({}, { 'log.level': 'error' });
const parallel = settings['dispatcher.parallel-batches'];
const bench = await startBenchDatabase();
const database = createDatabase(bench.url, { max: parallel + 4 });
const temporal = await startBenchTemporal();
const connection = await Connection.connect({ address: temporal.address });
const client = new Client({ connection });
const native = await NativeConnection.connect({ address: temporal.address });
const worker = await Worker.create({ connection: native, taskQueue: TASK_QUEUE, workflowsPath: PROBE });
const running = worker.run();

const dispatcherWith = (parallelBatches: number) =>
  new OutboxDispatcher({
    database,
    logger: pino({ level: 'error' }),
    startWorkflow: temporalStarter(client, TASK_QUEUE),
    signals: temporalSignaller(client, TASK_QUEUE),
    capabilities: ['PROBE'],
    pollMs: settings['dispatcher.poll-ms'],
    batchSize: settings['dispatcher.batch-size'],
    parallelBatches,
    maxAttempts: 3,
    backoffMs: 100,
  });

async function drainRound(label: string, parallelBatches: number): Promise<number> {
  await database.db.transaction(async (tx) => {
    for (let i = 0; i < BACKLOG; i++) await enqueueStart(tx, ProbeProcess, { tenantId: 'bench', key: `${label}-${i}`, expect: 0 }, { taskQueue: TASK_QUEUE });
  });
  const dispatcher = dispatcherWith(parallelBatches);
  const started = performance.now();
  await dispatcher.start();
  for (;;) {
    const [row] = await database.sql<{ n: number }[]>`select count(*)::int as n from outbox where state = 'QUEUED'`;
    if (row!.n === 0) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const seconds = (performance.now() - started) / 1000;
  await dispatcher.stop();
  return BACKLOG / seconds;
}

await drainRound('warmup', parallel);
const rates = await alternateRounds(['one', 'parallel'] as const, ROUNDS, (mode, r) => drainRound(`${mode}-${r}`, mode === 'one' ? 1 : parallel));
const one = median(rates.one);
const many = median(rates.parallel);

worker.shutdown();
await running;
await native.close();
await connection.close();
await database.close();
await temporal.stop();
await bench.stop();

const roundRatios = rates.parallel.map((r, i) => r / rates.one[i]!);
const ratio = round(median(roundRatios));
report(
  'outbox-starts',
  {
    backlog: BACKLOG,
    rounds: ROUNDS,
    batchSize: settings['dispatcher.batch-size'],
    baseline: { name: 'one claim loop', startsPerSecond: Math.round(one) },
    startsPerSecond: { oneBatch: Math.round(one), parallelBatches: Math.round(many), parallel },
    ratio,
    ratioOfMedians: round(many / one),
    perRound: { one: rates.one.map(Math.round), parallel: rates.parallel.map(Math.round), ratio: roundRatios.map((x) => round(x)) },
  },
  [atLeast(`${parallel} loops / one loop, starts per second`, ratio, GOAL_RATIO, `one loop ${Math.round(one)} starts/s`)],
);
// The Temporal worker's native runtime keeps the process alive; exitCode carries the verdict.
process.exit();
