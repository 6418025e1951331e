/**
 * bench/faults: faults survived, as figures (issue 23 item 6). Under a steady load of API writes
 * that start and signal workflows, PostgreSQL is restarted once, the Temporal server once, and one
 * worker and one dispatcher are SIGKILLed (each restarted at once, as a supervisor would). Nothing
 * else is restarted: the API node, and the worker and dispatcher until their kill, must reconnect
 * on their own.
 *
 * - Servers (bench/support/fault-servers.ts): an embedded PostgreSQL, stopped (fast shutdown) and
 *   started again on the same port and data dir; the Temporal dev server on its SQLite file
 *   (`--db-filename`), stopped and started again on the same port, its histories kept. Each is
 *   down FAULTS_BENCH_OUTAGE_MS (default 6,000) after it exited.
 * - Roles (bench/support/fault-roles.ts): an API node, a worker (no dispatcher) and a dispatcher,
 *   each its own process of the production composition.
 * - Load (bench/support/fault-load.ts): embed submissions at FAULTS_BENCH_SUBMITS_PER_SECOND
 *   (default 2; each starts a formIntake workflow through the outbox) and SLA clock pause/resume
 *   steps at FAULTS_BENCH_STEPS_PER_SECOND (default 2; each signals its slaClock workflow through
 *   the outbox), each request with a 15 s deadline, none retried.
 * - Faults one at a time, each followed by its recovery (bench/support/fault-checks.ts): seconds
 *   from the fault's end (server answering again, replacement ready) until a write sent after it
 *   answered 2xx, every outbox row committed by then was delivered, every submission made by then
 *   was PROCESSED, and the LISTEN connections of the API node and the dispatcher were open again.
 * - Afterwards, from PostgreSQL and Temporal: every 2xx submission has its instance PROCESSED once,
 *   its start row CLOSED and its formIntake COMPLETED (one run per instance); every 2xx step has its
 *   signal row DELIVERED and exactly one SlaClockChanged per row in its workflow's history.
 *
 * Goals (counts): lost = 0, duplicated = 0, 500s = 0, 503s without Retry-After = 0, hangs (no
 * answer within the deadline) = 0, faults not recovered within FAULTS_BENCH_RECOVERY_MS = 0,
 * roles dead at the end = 0. Every wait has a deadline; past FAULTS_BENCH_DEADLINE_MS (default
 * 25 minutes) the bench prints what it has and exits 1. Prints exactly one JSON line.
 *
 * Run: npm run bench -- faults
 */
import { Client, Connection } from '@temporalio/client';
import { mkdir } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '../db/client';
import { awaitDrained, awaitRecovery, verify, type Recovery } from './support/fault-checks';
import { startSteadyLoad, type WriteRecord } from './support/fault-load';
import { roleStarter, type Role, type RoleProcess } from './support/fault-roles';
import { seedFaultTenant } from './support/fault-seed';
import { startFaultServers, type RestartableServer } from './support/fault-servers';
import { exactly, report } from './support/goals';

const env = process.env;
const SUBMITS_PER_SECOND = Number(env.FAULTS_BENCH_SUBMITS_PER_SECOND ?? 2);
const STEPS_PER_SECOND = Number(env.FAULTS_BENCH_STEPS_PER_SECOND ?? 2);
const OUTAGE_MS = Number(env.FAULTS_BENCH_OUTAGE_MS ?? 6_000);
const RECOVERY_MS = Number(env.FAULTS_BENCH_RECOVERY_MS ?? 240_000);
const DEADLINE_MS = Number(env.FAULTS_BENCH_DEADLINE_MS ?? 25 * 60_000);
const CLOCKS = 24;
const REQUEST_TIMEOUT_MS = 15_000;
const WARM_MS = 10_000;
const SETTLE_MS = 5_000;
const DRAIN_MS = 5 * 60_000;
/** The API node's LISTEN connection (access cache) and the dispatcher's (outbox, form events). */
const LISTENERS = 2;

const log = (msg: string) => process.stderr.write(`[faults] ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load1 = () => Math.round(loadavg()[0]! * 100) / 100;
const loadAtStart = load1();

const watchdog = setTimeout(() => {
  log(`past the bench deadline of ${DEADLINE_MS} ms: stopping`);
  report('faults', { error: `not done within ${DEADLINE_MS} ms` }, [exactly('finished within the deadline', 0, 1, `${DEADLINE_MS} ms`)]);
  process.exit(1);
}, DEADLINE_MS);

const servers = await startFaultServers();
const logDir = join(servers.dir, 'logs');
await mkdir(logDir, { recursive: true });
log(`servers up; role logs in ${logDir}`);
const start = await roleStarter({
  databaseUrl: servers.postgres.address,
  temporalAddress: servers.temporal.address,
  embedKey: 'faults-bench-embed-key-0123456789abcdef0123',
  logDir,
  readyTimeoutMs: 300_000,
});
const api = await start('api');
const roles: Record<'worker' | 'dispatcher', RoleProcess> = { worker: await start('worker'), dispatcher: await start('dispatcher') };
log('roles ready');

const seed = await seedFaultTenant(api.base, CLOCKS);
const db = createDatabase(servers.postgres.address, { max: 2 });
if (!(await awaitDrained(db.sql, RECOVERY_MS))) throw new Error('the seeded clocks did not start');
log(`seeded: form ${seed.formCode}, ${CLOCKS} clocks running`);

const load = startSteadyLoad({
  base: api.base,
  embedToken: seed.embedToken,
  clockIds: seed.clockIds,
  submitsPerSecond: SUBMITS_PER_SECOND,
  stepsPerSecond: STEPS_PER_SECOND,
  timeoutMs: REQUEST_TIMEOUT_MS,
});
await sleep(WARM_MS);

/** What /health/ready says while a server is down: the node stays in, naming the part. */
async function readiness() {
  try {
    const res = await fetch(`${api.base}/health/ready`, { signal: AbortSignal.timeout(10_000) });
    const body = (await res.json()) as { status: string; failing: string[] };
    return { http: res.status, status: body.status, failing: body.failing };
  } catch (err) {
    return { http: null, error: (err as Error).message };
  }
}

/** The answers to writes sent from `from` to `to` (epoch ms), by status. */
function answers(records: WriteRecord[], from: number, to: number) {
  const out: Record<string, number> = {};
  for (const r of records) if (r.sentAt >= from && r.sentAt <= to) out[String(r.status)] = (out[String(r.status)] ?? 0) + 1;
  return out;
}

const faults: Record<string, { recovery: Recovery } & Record<string, unknown>> = {};

async function restartServer(name: string, server: RestartableServer) {
  log(`${name}: restarting`);
  const outage = await server.restart(OUTAGE_MS, async () => {
    await sleep(OUTAGE_MS / 2);
    return readiness();
  });
  log(`${name}: back after ${(outage.upAt - outage.stoppedAt) / 1000} s`);
  const recovery = await awaitRecovery(db.sql, load.records, outage.upAt, LISTENERS, RECOVERY_MS);
  const until = recovery.recoveredS === null ? Date.now() : outage.upAt + recovery.recoveredS * 1000;
  faults[name] = { outageS: (outage.upAt - outage.stoppedAt) / 1000, readinessWhileDown: outage.whileDown, answersUntilRecovered: answers(load.records, outage.stoppedAt, until), recovery };
  log(`${name}: recovered ${JSON.stringify(recovery)}`);
  await sleep(SETTLE_MS);
}

async function killRole(role: Exclude<Role, 'api'>) {
  log(`${role}: SIGKILL`);
  const killedAt = Date.now();
  await roles[role].kill();
  roles[role] = await start(role);
  const readyAt = Date.now();
  const recovery = await awaitRecovery(db.sql, load.records, readyAt, LISTENERS, RECOVERY_MS);
  const until = recovery.recoveredS === null ? Date.now() : readyAt + recovery.recoveredS * 1000;
  faults[`${role}-sigkill`] = { replacementReadyS: (readyAt - killedAt) / 1000, answersUntilRecovered: answers(load.records, killedAt, until), recovery };
  log(`${role}: recovered ${JSON.stringify(recovery)}`);
  await sleep(SETTLE_MS);
}

await restartServer('postgres-restart', servers.postgres);
await restartServer('temporal-restart', servers.temporal);
await killRole('worker');
await killRole('dispatcher');
await load.stop();
const loadAtEnd = load1();
log(`load stopped after ${load.records.length} requests; draining`);

const connection = await Connection.connect({ address: servers.temporal.address });
const temporal = new Client({ connection });
const drained = await awaitDrained(db.sql, DRAIN_MS, temporal);
const verdict = await verify(db.sql, temporal, load.records);
const metricsText = api.metrics ? await (await fetch(api.metrics, { signal: AbortSignal.timeout(10_000) })).text().catch(() => '') : '';
const cacheServing = /^platform_access_cache_serving 1$/m.test(metricsText);
const alive = [api, roles.worker, roles.dispatcher].filter((r) => r.proc.exitCode === null && r.proc.signalCode === null).length;

const records = load.records;
const count = (pick: (r: WriteRecord) => boolean) => records.filter(pick).length;
const is5xx = (r: WriteRecord) => typeof r.status === 'number' && r.status >= 500;
const byCode: Record<string, number> = {};
for (const r of records) if (typeof r.status === 'number' && r.status >= 300) byCode[`${r.status} ${r.code}`] = (byCode[`${r.status} ${r.code}`] ?? 0) + 1;
const figures = {
  sent: records.length,
  answered2xx: count((r) => typeof r.status === 'number' && r.status < 300),
  answered503: count((r) => r.status === 503),
  answered503WithRetryAfter: count((r) => r.status === 503 && r.retryAfter !== null),
  answered500: count((r) => is5xx(r) && r.status !== 503),
  timeouts: count((r) => r.status === 'timeout'),
  noAnswer: count((r) => r.status === 'error'),
  refusals: byCode,
  lost: verdict.submissions.lost + verdict.signals.lost,
  duplicated: verdict.submissions.duplicated + verdict.signals.duplicated,
};
const notRecovered = Object.values(faults).filter((f) => f.recovery.recoveredS === null).length + (drained ? 0 : 1);
const goals = [
  exactly('lost (2xx writes without their start or signal)', figures.lost, 0, `${figures.answered2xx} answered 2xx`),
  exactly('duplicated (more than one start or signal per write)', figures.duplicated, 0, `${verdict.signals.historySignals} signals, ${verdict.submissions.workflows} formIntake runs`),
  exactly('500s', figures.answered500, 0, `${figures.sent} sent`),
  exactly('503s without Retry-After', figures.answered503 - figures.answered503WithRetryAfter, 0, `${figures.answered503} answered 503`),
  exactly('hangs (no answer within the deadline)', figures.timeouts + figures.noAnswer, 0, `${REQUEST_TIMEOUT_MS} ms deadline`),
  exactly('faults not recovered', notRecovered, 0, `${Object.keys(faults).length} faults, ${RECOVERY_MS} ms each`),
  exactly('roles dead at the end, or access cache not serving', 3 - alive + (cacheServing ? 0 : 1), 0, 'api, worker, dispatcher'),
];

await connection.close();
await db.close();
await Promise.all([api.stop(), roles.worker.stop(), roles.dispatcher.stop()]);
const keepDir = !goals.every((g) => g.met);
await servers.stop({ keepDir });
if (keepDir) log(`a goal was missed: data and role logs kept in ${servers.dir}`);
clearTimeout(watchdog);

report(
  'faults',
  {
    ...figures,
    rates: { submitsPerSecond: SUBMITS_PER_SECOND, stepsPerSecond: STEPS_PER_SECOND, outageMs: OUTAGE_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS },
    loadAverage: { start: loadAtStart, end: loadAtEnd },
    faults,
    verdict,
    drainedAfterLoad: drained,
    apiAccessCacheServing: cacheServing,
  },
  goals,
);
process.exit();
