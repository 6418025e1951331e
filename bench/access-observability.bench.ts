/**
 * bench/access-observability: the guarded read GET /api/my-capabilities on five API nodes, each
 * in its own process (bench/support/access-server.ts) on one database: observability off; metrics
 * on; metrics and tracing on with the OTLP exporter posting to a local sink that drops
 * (bench/support/otlp-sink.ts), every request sampled, then 10% and 1% sampled with the standard
 * OTEL_TRACES_SAMPLER=parentbased_traceidratio, OTEL_TRACES_SAMPLER_ARG=0.1 / 0.01. Then the same
 * read with the access cache off (a PostgreSQL round trip a request), for scale.
 *
 * A warm-up of each node, then ROUNDS rounds of SECONDS each, the nodes loaded one after another in
 * a different order every round (support/order.ts). Each mode's ratio is the median over the
 * rounds of (mode / off in that round), in answers per CPU-second of the node (its threads' CPU
 * time over the phase: what the node's code costs, steady while other work takes the machine's
 * CPU at random); answers a second (wall clock) are reported beside them. Throughput counts 2xx
 * answers only. Goals: metrics >= 0.95 x off; tracing sampled at 10% and at 1% >= 0.85 x off (every
 * request sampled is reported: a recorded span costs about a third of this read); no answer but 2xx.
 *
 * Run: npm run bench -- access-observability
 */
import { startLineChild, type LineChild } from './support/children';
import { atLeast, exactly, report } from './support/goals';
import { runLoad, type LoadResult } from './support/load';
import { alternateRounds } from './support/order';
import { READER_HEADERS, seedReaderThroughApi } from './support/seed';
import { startBenchDatabase } from './support/servers';
import { median, round } from './support/stats';

const ROUNDS = Number(process.env.ACCESS_BENCH_ROUNDS ?? 8);
const SECONDS = 4;
const UNCACHED_ROUNDS = 2;
const CONNECTIONS = 32;
const MODES = ['off', 'metrics', 'tracing', 'tracing-10', 'tracing-1'] as const;
type Mode = (typeof MODES)[number];
const GOALS: Partial<Record<Mode, number>> = { metrics: 0.95, 'tracing-10': 0.85, 'tracing-1': 0.85 };

const db = await startBenchDatabase();
const sink = await startLineChild('./otlp-sink.ts');
const nodes = {} as Record<Mode, LineChild<{ port: number }>>;
try {
  const env = { BENCH_DATABASE_URL: db.url, BENCH_OTLP_ENDPOINT: `http://127.0.0.1:${sink.ready.port}` };
  const sampled = (ratio: string) => ({ ...env, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: ratio });
  const nodeEnv: Record<Mode, Record<string, string>> = { off: env, metrics: env, tracing: env, 'tracing-10': sampled('0.1'), 'tracing-1': sampled('0.01') };
  for (const mode of MODES) nodes[mode] = await startLineChild('./access-server.ts', [mode.startsWith('tracing') ? 'tracing' : mode], nodeEnv[mode]);
  const base = (mode: Mode) => `http://127.0.0.1:${nodes[mode].ready.port}`;
  await seedReaderThroughApi(base('off'), MODES.map(base));

  const load = (mode: Mode, path: string, seconds: number) =>
    runLoad({ url: `${base(mode)}${path}`, seconds, connections: CONNECTIONS, headers: READER_HEADERS, serverPid: nodes[mode].proc.pid });
  const measure = async (path: string, rounds: number) => {
    for (const mode of MODES) await load(mode, path, 2);
    return alternateRounds(MODES, rounds, (mode) => load(mode, path, SECONDS));
  };
  const cached = await measure('/api/my-capabilities', ROUNDS);
  const uncached = await measure('/nocache/api/my-capabilities', UNCACHED_ROUNDS);
  const exports = ((await (await fetch(`http://127.0.0.1:${sink.ready.port}/`)).json()) as { exports: number }).exports;

  type Results = Record<Mode, LoadResult[]>;
  const perRound = (of: Results, mode: Mode, k: 'requestsPerSec' | 'requestsPerCpuSec') => of[mode].map((r, i) => r[k]! / of.off[i]![k]!);
  const ratio = (of: Results, mode: Mode) => round(median(perRound(of, mode, 'requestsPerCpuSec')), 3);
  const summary = (mode: Mode) => ({
    rps: Math.round(median(cached[mode].map((r) => r.requestsPerSec))),
    perCpuSecond: Math.round(median(cached[mode].map((r) => r.requestsPerCpuSec!))),
    p99Ms: Math.max(...cached[mode].map((r) => r.p99Ms)),
    ...(mode === 'off'
      ? {}
      : {
          ratio: ratio(cached, mode),
          ratioPerRound: perRound(cached, mode, 'requestsPerCpuSec').map((r) => round(r, 2)),
          wallRatio: round(median(perRound(cached, mode, 'requestsPerSec')), 3),
        }),
  });
  const failed = MODES.reduce((n, m) => n + [...cached[m], ...uncached[m]].reduce((a, x) => a + x.non2xx + x.errors, 0), 0);
  const off = summary('off');
  const figures = Object.fromEntries(MODES.map((m) => [m, summary(m)])) as Record<Mode, ReturnType<typeof summary>>;
  report(
    'access-observability',
    {
      route: 'GET /api/my-capabilities (access cache on)',
      connections: CONNECTIONS,
      rounds: ROUNDS,
      secondsPerRound: SECONDS,
      baseline: { mode: 'off (no metrics, no tracing)', ...off },
      metrics: figures.metrics,
      tracing: { sampled: '100%', ...figures.tracing },
      tracingSampled10: { sampled: '10% (parentbased_traceidratio)', ...figures['tracing-10'] },
      tracingSampled1: { sampled: '1% (parentbased_traceidratio)', ...figures['tracing-1'] },
      uncached: {
        route: 'GET /api/my-capabilities, access cache off',
        rounds: UNCACHED_ROUNDS,
        offPerCpuSecond: Math.round(median(uncached.off.map((r) => r.requestsPerCpuSec!))),
        ratios: Object.fromEntries(MODES.filter((m) => m !== 'off').map((m) => [m, ratio(uncached, m)])),
      },
      otlpExports: exports,
    },
    [
      ...(Object.entries(GOALS) as [Mode, number][]).map(([mode, goal]) =>
        atLeast(`${mode} / off, answers per CPU-second`, figures[mode].ratio!, goal, `off ${off.perCpuSecond}/CPU-s, ${off.rps} rps`),
      ),
      exactly('non-2xx answers', failed, 0, 'all nodes'),
    ],
  );
} finally {
  for (const node of Object.values(nodes)) await node.stop();
  await sink.stop();
  await db.stop();
}
