// The guarded read GET /api/my-capabilities with metrics on, and with metrics and tracing on
// (OTLP exporter posting to a local sink that drops), against both off, in one run: one API node
// per configuration in its own process on one database, the same autocannon load run against
// each in a different order every round. Goals: metrics on ≥ 0.95 × off; tracing (exporter
// configured) ≥ 0.85 × off. Tracing runs three times: every request sampled (the SDK default),
// and 10% and 1% sampled with the standard OTEL_TRACES_SAMPLER=parentbased_traceidratio,
// OTEL_TRACES_SAMPLER_ARG=0.1 / 0.01. Throughput counts 2xx answers only, and a run with any
// other answer does not pass.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runLoad, type LoadResult } from './support/load';
import { roundOrder } from './support/order';
import { startBenchDatabase } from './support/servers';

const SECONDS = 24;
const ROUNDS = 4;
const CONNECTIONS = 32;
const MODES = ['off', 'metrics', 'tracing', 'tracing-10', 'tracing-1'] as const;
type Mode = (typeof MODES)[number];

/** Starts a bench helper in its own process and reads the JSON line it prints once ready. */
async function child(script: string, args: string[], env: Record<string, string>) {
  const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(script, import.meta.url)), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const line = await new Promise<string>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
    createInterface({ input: proc.stdout! }).once('line', resolve);
  });
  return { proc, ...(JSON.parse(line) as { port: number }) };
}
const stop = (proc: ChildProcess) => new Promise((resolve) => (proc.once('exit', resolve), proc.stdin!.end()));

const bench = await startBenchDatabase();
const sink = await child('./support/otlp-sink.ts', [], {});
const env = { BENCH_DATABASE_URL: bench.url, BENCH_OTLP_ENDPOINT: `http://127.0.0.1:${sink.port}` };
const nodes = {} as Record<Mode, Awaited<ReturnType<typeof child>>>;
const sampled = (ratio: string) => ({ ...env, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: ratio });
const nodeEnv: Record<Mode, Record<string, string>> = { off: env, metrics: env, tracing: env, 'tracing-10': sampled('0.1'), 'tracing-1': sampled('0.01') };
for (const mode of MODES) nodes[mode] = await child('./support/observability-server.ts', [mode.startsWith('tracing') ? 'tracing' : mode], nodeEnv[mode]);
const base = (mode: Mode) => `http://127.0.0.1:${nodes[mode].port}`;

// Seed through one node (all share the database): a tenant whose reader holds read grants.
const h = (user: string, tenant?: string) => ({ 'Content-Type': 'application/json', 'X-User-Id': user, ...(tenant ? { 'X-Tenant-Id': tenant } : {}) });
await fetch(`${base('off')}/api/tenants`, { method: 'POST', headers: h('owner'), body: JSON.stringify({ id: 'bench', name: 'Bench' }) });
await fetch(`${base('off')}/api/tenants/bench/members/reader`, { method: 'PUT', headers: h('owner', 'bench') });
for (const code of ['PHONE', 'SLA']) {
  await fetch(`${base('off')}/api/tenants/bench/capabilities/${code}`, { method: 'PUT', headers: h('owner', 'bench') });
  await fetch(`${base('off')}/api/tenants/bench/users/reader/capabilities/${code}`, { method: 'PUT', headers: h('owner', 'bench'), body: JSON.stringify({ level: 'read' }) });
}
const headers = { 'X-User-Id': 'reader', 'X-Tenant-Id': 'bench' };
for (const mode of MODES) {
  const check = await (await fetch(`${base(mode)}/api/my-capabilities`, { headers })).json();
  if (JSON.stringify(check) !== JSON.stringify({ PHONE: 'read', SLA: 'read' })) throw new Error(`bad seed on ${mode}: ${JSON.stringify(check)}`);
}

/** Warms each node up, then loads them in a different order each round, so drift on a shared machine hits all alike. */
async function measure(path: string, rounds: number, seconds: number) {
  for (const mode of MODES) await runLoad({ url: `${base(mode)}${path}`, seconds: 2, connections: CONNECTIONS, headers });
  const results = Object.fromEntries(MODES.map((m) => [m, [] as LoadResult[]])) as Record<Mode, LoadResult[]>;
  for (let round = 0; round < rounds; round++) {
    for (const mode of roundOrder(MODES, round)) results[mode].push(await runLoad({ url: `${base(mode)}${path}`, seconds: seconds / rounds, connections: CONNECTIONS, headers }));
  }
  return results;
}
const results = await measure('/api/my-capabilities', ROUNDS, SECONDS);
// The same read with the access cache off: one PostgreSQL round trip a request, for scale.
const uncached = await measure('/nocache/api/my-capabilities', 2, SECONDS / 4);
const exported = ((await (await fetch(`http://127.0.0.1:${sink.port}/`)).json()) as { exports: number }).exports;

for (const mode of MODES) await stop(nodes[mode].proc);
await stop(sink.proc);
await bench.stop();

const rps = (mode: Mode, of = results) => of[mode].reduce((a, x) => a + x.requestsPerSec, 0) / of[mode].length;
const uncachedRatio = (mode: Mode) => Math.round((rps(mode, uncached) / rps('off', uncached)) * 1000) / 1000;
const p99 = (mode: Mode) => Math.max(...results[mode].map((x) => x.p99Ms));
/** Requests that did not answer 2xx, cached and uncached rounds together. */
const failed = (mode: Mode) => [...results[mode], ...uncached[mode]].reduce((a, x) => a + x.non2xx + x.errors, 0);
const ratio = (mode: Mode) => Math.round((rps(mode) / rps('off')) * 1000) / 1000;
const summary = (mode: Mode) => ({ rps: Math.round(rps(mode)), p99Ms: p99(mode), failed: failed(mode) });
const clean = MODES.every((mode) => failed(mode) === 0);

process.stdout.write(
  `${JSON.stringify({
    bench: 'access-guarded-read-observability',
    route: 'GET /api/my-capabilities',
    connections: CONNECTIONS,
    seconds: SECONDS,
    off: summary('off'),
    metrics: { ...summary('metrics'), ratio: ratio('metrics') },
    tracing: { sampled: '100%', ...summary('tracing'), ratio: ratio('tracing') },
    tracingSampled10: { sampled: '10% (parentbased_traceidratio)', ...summary('tracing-10'), ratio: ratio('tracing-10') },
    tracingSampled1: { sampled: '1% (parentbased_traceidratio)', ...summary('tracing-1'), ratio: ratio('tracing-1') },
    uncached: {
      route: 'GET /api/my-capabilities, access cache off',
      offRps: Math.round(rps('off', uncached)),
      ratios: Object.fromEntries(MODES.filter((m) => m !== 'off').map((m) => [m, uncachedRatio(m)])),
    },
    otlpExports: exported,
    goal: { metricsRatioAtLeast: 0.95, tracingRatioAtLeast: 0.85 },
    pass: {
      metrics: clean && ratio('metrics') >= 0.95,
      tracing: clean && ratio('tracing') >= 0.85,
      tracingSampled10: clean && ratio('tracing-10') >= 0.85,
      tracingSampled1: clean && ratio('tracing-1') >= 0.85,
    },
  })}\n`,
);
process.exit(0);
