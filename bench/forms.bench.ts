/**
 * bench/forms: durable intake under load (issue 10 "Benchmark"). N embed submissions
 * (FORMS_BENCH_N, default 2000) from FORMS_BENCH_CLIENTS concurrent clients (default 32) through
 * the public submit route, while a worker node (bench/support/forms-worker-child.ts: Temporal
 * worker, outbox dispatcher, event correlator) runs in a child process that is SIGKILLed when half
 * the submissions are in and started again at once. Then a paced phase: FORMS_BENCH_PACED_N
 * submissions (default 300) at FORMS_BENCH_RATE per second (default 10, one embed token's default
 * limit of 600 a minute), with the worker running: its commit -> start is the wake-up latency,
 * where the burst's is queueing behind a backlog. The submission PDF is off
 * (`forms.submission-pdf=false`): this measures the intake rail, not Chromium
 * (bench/forms-render.bench.ts measures renders). Rate limits are raised for the burst.
 *
 * Baseline, same run and servers, before the platform's burst: the same submissions written the
 * plain way, one INSERT of the answers into a bare table and a direct workflow start from the
 * committing process (a probe workflow that ends at once, on its own task queue and worker), as a
 * burst from the same number of clients and then paced at the same rate (BASELINE_PACED_N of
 * them). Commit -> start on both sides is the committing transaction's time to Temporal's start
 * time of the workflow.
 *
 * Goals: lost = 0 (instances without a COMPLETED formIntake workflow, a CLOSED outbox row and
 * state PROCESSED); burst submissions/s >= 0.5 x the baseline's; paced commit -> start p50 at
 * most 5 x the baseline's (the outbox adds a NOTIFY wake-up and a claim transaction to the start).
 *
 * Real PostgreSQL (embedded, or DATABASE_URL's server) and the Temporal CLI dev server (or
 * TEMPORAL_ADDRESS). Prints exactly one JSON line.
 *
 * Run: npm run bench -- forms   (smaller: FORMS_BENCH_N=200 npm run bench -- forms)
 */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { createApp } from '../api/app';
import { createDatabase } from '../db/client';
import { workflowIdFor } from '../db/outbox';
import { mailerFor } from '../integrations/mail/mailer';
import { bootstrapAccess } from '../workers/bootstrap';
import { loadSettings } from '../workers/config';
import { ProbeProcess } from '../test/support/processes';
import { atLeast, atMost, exactly, report } from './support/goals';
import { startBenchDatabase, startBenchTemporal } from './support/servers';
import { percentile } from './support/stats';

const N = Number(process.env.FORMS_BENCH_N ?? 2000);
const CLIENTS = Number(process.env.FORMS_BENCH_CLIENTS ?? 32);
const EMBED_KEY = 'bench-embed-key-0123456789abcdef0123456789';
const TASK_QUEUE = 'bench-forms';
const CHILD = fileURLToPath(new URL('./support/forms-worker-child.ts', import.meta.url));
const PROBE = fileURLToPath(new URL('../test/support/workflows/signal-probe.ts', import.meta.url));
const BASELINE_QUEUE = 'bench-forms-baseline';
const BASELINE_PACED_N = Number(process.env.FORMS_BENCH_BASELINE_PACED_N ?? 100);
const GOAL_THROUGHPUT = 0.5;
const GOAL_LATENCY = 5;

const overrides = {
  'log.level': 'error',
  'forms.embed-key': EMBED_KEY,
  'forms.rate-limit.per-ip-per-minute': 1_000_000,
  'forms.rate-limit.per-token-per-minute': 1_000_000,
  'forms.submission-pdf': false,
} as const;
const settings = loadSettings({}, overrides);
const bench = await startBenchDatabase();
const database = createDatabase(bench.url, { max: 16 });
const temporal = await startBenchTemporal();
const temporalAddress = temporal.address;
const connection = await Connection.connect({ address: temporalAddress });
const client = new Client({ connection });

await bootstrapAccess(database.db, settings);
const app = createApp({ db: database.db, settings, logger: pino({ level: 'error' }), mailer: mailerFor(settings), readiness: {} });
const call = async (method: string, path: string, body?: unknown, user: string | null = 'owner'): Promise<any> => {
  const res = await app.request(path, {
    method,
    headers: { 'Content-Type': 'application/json', ...(user ? { 'X-User-Id': user, 'X-Tenant-Id': 'bench' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = res.status === 204 ? null : await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
};

// Seed: a FORMS tenant and a published form with its embed token, through the API.
await app.request('/api/tenants', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-User-Id': 'owner' }, body: JSON.stringify({ id: 'bench', name: 'Bench' }) });
await call('PUT', '/api/tenants/bench/capabilities/FORMS');
await call('PUT', '/api/tenants/bench/users/owner/capabilities/FORMS', { level: 'read-write' });
const schema = { title: 'Contact', fields: [{ key: 'name', type: 'text', label: 'Name' }, { key: 'email', type: 'email', label: 'Email', required: true }] };
const def = await call('POST', '/api/form-definitions', { name: 'Bench intake', kind: 'INBOUND', draftSchema: schema, submissionHandling: 'store' });
await call('POST', `/api/form-definitions/${def.id}/versions`);
await call('POST', `/api/form-definitions/${def.id}/sign-off`);
await call('POST', `/api/form-definitions/${def.id}/versions/1/publish`);
const { token } = await call('GET', `/api/form-definitions/${def.id}/embed-token`);

const childEnv = {
  ...process.env,
  DATABASE_URL: bench.url,
  TEMPORAL_ADDRESS: temporalAddress,
  TEMPORAL_TASK_QUEUE: TASK_QUEUE,
  FORMS_SUBMISSION_PDF: 'false',
  DISPATCHER_CAPABILITIES: 'FORMS',
  LOG_LEVEL: 'error',
};
function startWorkerChild(): { child: ChildProcess; ready: Promise<void> } {
  // node itself (not the tsx wrapper), so SIGKILL hits the worker and nothing survives it.
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = new Promise<void>((resolve) => createInterface({ input: child.stdout! }).on('line', (l) => l === 'ready' && resolve()));
  return { child, ready };
}

// Baseline: one INSERT of the answers, then a direct start of a workflow that ends at once.
await database.sql`create table bench_submissions (id uuid primary key, data jsonb not null, created_at timestamptz not null default now())`;
const probeNative = await NativeConnection.connect({ address: temporalAddress });
const probeWorker = await Worker.create({ connection: probeNative, taskQueue: BASELINE_QUEUE, workflowsPath: PROBE });
const probeRunning = probeWorker.run();
const baselineCommitted = new Map<string, number>();
async function plainSubmission(n: number, label: string) {
  const id = randomUUID();
  const [row] = await database.sql<{ at: number }[]>`
    insert into bench_submissions (id, data) values (${id}, ${JSON.stringify({ name: `${label} ${n}`, email: `${label}${n}@example.com` })}::jsonb)
    returning (extract(epoch from created_at) * 1000)::float8 as at`;
  baselineCommitted.set(id, row!.at);
  await client.workflow.start(ProbeProcess.workflowType, { taskQueue: BASELINE_QUEUE, workflowId: `bench-baseline-${id}`, args: [{ expect: 0 }] });
  return id;
}
const baselineIds: string[] = [];
let baselineNext = 0;
const baselineStarted = performance.now();
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (baselineNext < N) baselineIds.push(await plainSubmission(baselineNext++, 'plain'));
  }),
);
const baselineSeconds = (performance.now() - baselineStarted) / 1000;
const baselinePacedIds: string[] = [];
await Promise.all(
  Array.from({ length: BASELINE_PACED_N }, async (_, n) => {
    await new Promise((r) => setTimeout(r, (n * 1000) / Number(process.env.FORMS_BENCH_RATE ?? 10)));
    baselinePacedIds.push(await plainSubmission(n, 'plain-paced'));
  }),
);
/** Commit -> Temporal's start time of each baseline workflow. */
async function baselineLatencies(ids: string[]) {
  const out: number[] = [];
  for (let i = 0; i < ids.length; i += 50) {
    await Promise.all(
      ids.slice(i, i + 50).map(async (id) => {
        const d = await client.workflow.getHandle(`bench-baseline-${id}`).describe();
        out.push(d.startTime.getTime() - baselineCommitted.get(id)!);
      }),
    );
  }
  return out;
}
const baselineBurstLatency = await baselineLatencies(baselineIds);
const baselinePacedLatency = await baselineLatencies(baselinePacedIds);
probeWorker.shutdown();
await probeRunning;
await probeNative.close();

let worker = startWorkerChild();
await worker.ready;

// Submissions from CLIENTS concurrent clients; at N/2 the worker node is killed and restarted.
const ids: string[] = [];
let next = 0;
let killedAt = -1;
const started = performance.now();
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (next < N) {
      const n = next++;
      if (n === Math.floor(N / 2)) {
        killedAt = n;
        worker.child.kill('SIGKILL');
        worker = startWorkerChild();
      }
      const r = await call('POST', `/api/public/embed/${token}/submit`, { data: { name: `Respondent ${n}`, email: `r${n}@example.com` } }, null);
      ids.push(r.id);
    }
  }),
);
const submitSeconds = (performance.now() - started) / 1000;

/** Waits until `count` instances are PROCESSED with their outbox rows CLOSED (bounded); answers how many are. */
async function drained(count: number): Promise<number> {
  const deadline = Date.now() + 15 * 60_000;
  let done = 0;
  while (Date.now() < deadline) {
    const [row] = await database.sql<{ n: number }[]>`
      select count(*)::int as n from form_instances i join outbox o on o.business_key = i.id::text and o.verb = 'start'
      where i.tenant_id = 'bench' and i.state = 'PROCESSED' and o.state = 'CLOSED'`;
    done = row!.n;
    if (done >= count) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return done;
}
const done = await drained(N);
const drainedSeconds = (performance.now() - started) / 1000;

// Paced: one submission every 1/RATE s, each on its own, so no backlog builds up.
const PACED_N = Number(process.env.FORMS_BENCH_PACED_N ?? 300);
const RATE = Number(process.env.FORMS_BENCH_RATE ?? 10);
const pacedIds: string[] = [];
const pacedStart = performance.now();
await Promise.all(
  Array.from({ length: PACED_N }, async (_, n) => {
    await new Promise((r) => setTimeout(r, (n * 1000) / RATE));
    const r = await call('POST', `/api/public/embed/${token}/submit`, { data: { name: `Paced ${n}`, email: `p${n}@example.com` } }, null);
    pacedIds.push(r.id);
  }),
);
const pacedSeconds = (performance.now() - pacedStart) / 1000;
const pacedDone = (await drained(N + PACED_N)) - done;

// Every workflow COMPLETED in Temporal; commit → start from the row's transaction time to Temporal's start time.
const committed = new Map(
  (
    await database.sql<{ id: string; seq: number; at: number }[]>`
      select business_key as id, seq::float8 as seq, (extract(epoch from created_at) * 1000)::float8 as at from outbox where verb = 'start' and capability = 'FORMS'`
  ).map((r) => [r.id, r]),
);
const order = [...committed.values()].sort((a, b) => a.seq - b.seq).map((r) => r.id);
const latency = new Map<string, number>();
let incomplete = 0;
const everyId = [...ids, ...pacedIds];
for (let i = 0; i < everyId.length; i += 50) {
  await Promise.all(
    everyId.slice(i, i + 50).map(async (id) => {
      try {
        const d = await client.workflow.getHandle(workflowIdFor('FORMS', 'bench', id)).describe();
        if (d.status.name !== 'COMPLETED') incomplete++;
        latency.set(id, d.startTime.getTime() - committed.get(id)!.at);
      } catch (err) {
        if (incomplete++ === 0) process.stderr.write(`[forms] describe ${id}: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    }),
  );
}
const pct = (xs: number[], p: number) => (xs.length ? percentile(xs, p) : null);
const round1 = (x: number) => Math.round(x * 10) / 10;
const all = ids.map((id) => latency.get(id)).filter((x) => x !== undefined);
const paced = pacedIds.map((id) => latency.get(id)).filter((x) => x !== undefined);
const beforeKill = order.slice(0, Math.max(0, killedAt - CLIENTS)).map((id) => latency.get(id)!).filter((x) => x !== undefined);

worker.child.kill('SIGKILL');
await connection.close();
await database.close();
await temporal.stop();
await bench.stop();

const submissionsPerSecond = round1(N / submitSeconds);
const baselinePerSecond = round1(N / baselineSeconds);
const lost = N + PACED_N - Math.min(done, N) - Math.min(pacedDone, PACED_N) + incomplete;
const throughputRatio = Math.round((submissionsPerSecond / baselinePerSecond) * 100) / 100;
const pacedP50 = pct(paced, 50) ?? NaN;
const baselinePacedP50 = pct(baselinePacedLatency, 50) ?? NaN;
const latencyRatio = Math.round((pacedP50 / baselinePacedP50) * 100) / 100;
report(
  'forms',
  {
    n: N,
    clients: CLIENTS,
    submissionPdf: false,
    submissionsPerSecond,
    allProcessedAfterSeconds: round1(drainedSeconds),
    lost,
    workerKilledAtSubmission: killedAt,
    commitToStartMs: { p50: pct(all, 50), p99: pct(all, 99), max: pct(all, 100) },
    commitToStartBeforeKillMs: { p50: pct(beforeKill, 50), p99: pct(beforeKill, 99) },
    paced: {
      n: PACED_N,
      offeredPerSecond: RATE,
      achievedPerSecond: round1(PACED_N / pacedSeconds),
      commitToStartMs: { p50: pct(paced, 50), p99: pct(paced, 99), max: pct(paced, 100) },
    },
    baseline: {
      name: 'one plain INSERT and a direct workflow start from the committing process',
      submissionsPerSecond: baselinePerSecond,
      commitToStartMs: { p50: pct(baselineBurstLatency, 50), p99: pct(baselineBurstLatency, 99) },
      paced: { n: BASELINE_PACED_N, commitToStartMs: { p50: pct(baselinePacedLatency, 50), p99: pct(baselinePacedLatency, 99) } },
    },
    ratio: { throughput: throughputRatio, pacedCommitToStartP50: latencyRatio },
  },
  [
    exactly('submissions lost', lost, 0, `${N + PACED_N} submitted, worker killed once`),
    atLeast('burst submissions/s / plain INSERT + start', throughputRatio, GOAL_THROUGHPUT, `plain ${baselinePerSecond}/s`),
    atMost('paced commit->start p50 / direct start', latencyRatio, GOAL_LATENCY, `direct start p50 ${Math.round(baselinePacedP50 * 10) / 10} ms`),
  ],
);
process.exit();
