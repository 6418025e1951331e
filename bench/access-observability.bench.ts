/**
 * bench/access-observability: the guarded read GET /api/my-capabilities on API nodes, each in its
 * own process (bench/support/access-server.ts) on one database: observability off; a second node
 * with it off (the bench's check of itself); metrics on; tracing on (metrics off: each node differs
 * from off by one thing) with the OTLP exporter posting to a local sink that drops
 * (bench/support/otlp-sink.ts), every request sampled,
 * then 10% and 1% sampled with the standard OTEL_TRACES_SAMPLER=parentbased_traceidratio,
 * OTEL_TRACES_SAMPLER_ARG=0.1 / 0.01. Then the same read with the access cache off (a PostgreSQL
 * round trip a request), for scale.
 *
 * The nodes are compared at the same time on the same CPU: all of them pinned to one CPU, the
 * bench, its load generator, PostgreSQL and the sink on the others (support/pinning.ts), and every
 * round loads all of them at once (support/load.ts, runLoadsTogether), so whatever slows the
 * machine in a round slows every node alike. Loaded one after another instead, two identical nodes
 * measured 0.86-0.93 of each other over eight rounds, which is what left this bench unable to tell
 * a 0.85 goal from its noise. The tenant is seeded through a node that is then stopped, so no node
 * compared has run the writes.
 *
 * Each mode's ratio is the median over ROUNDS rounds of (mode / off in that round), in answers per
 * CPU-second of the node (its threads' CPU time over the round); answers a second are reported
 * beside them. Throughput counts 2xx answers only. Goals: the second node with observability off
 * within 0.9-1.1 of the first (else the bench cannot tell the others apart from its noise); metrics
 * >= 0.95 x off; tracing sampled at 10% and at 1% >= 0.85 x off (every request sampled is reported
 * without a goal); no answer but 2xx. The reads here carry no trace context, so the sampled ones are
 * root reads, recorded without an SDK span (integrations/tracing/root-reads.ts says why).
 *
 * Run: npm run bench -- access-observability
 */
import { startLineChild, type LineChild } from './support/children';
import { atLeast, exactly, report, within } from './support/goals';
import { runLoadsTogether, type LoadResult } from './support/load';
import { pin, placeSelf } from './support/pinning';
import { READER_HEADERS, seedReaderThroughApi } from './support/seed';
import { startBenchDatabase } from './support/servers';
import { median, round } from './support/stats';

const ROUNDS = Number(process.env.ACCESS_BENCH_ROUNDS ?? 12);
const SECONDS = 4;
const UNCACHED_ROUNDS = 3;
const CONNECTIONS = 16;
const MODES = ['off', 'off-b', 'metrics', 'tracing', 'tracing-10', 'tracing-1'] as const;
type Mode = (typeof MODES)[number];
const GOALS: Partial<Record<Mode, number>> = { metrics: 0.95, 'tracing-10': 0.85, 'tracing-1': 0.85 };

const placement = placeSelf();
const db = await startBenchDatabase();
const sink = await startLineChild('./otlp-sink.ts');
const nodes = {} as Record<Mode, LineChild<{ port: number }>>;
try {
  const env = { BENCH_DATABASE_URL: db.url, BENCH_OTLP_ENDPOINT: `http://127.0.0.1:${sink.ready.port}` };
  const sampled = (ratio: string) => ({ ...env, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: ratio });
  const nodeEnv: Record<Mode, Record<string, string>> = { off: env, 'off-b': env, metrics: env, tracing: env, 'tracing-10': sampled('0.1'), 'tracing-1': sampled('0.01') };
  const nodeMode = (mode: Mode) => (mode.startsWith('tracing') ? 'tracing' : mode === 'off-b' ? 'off' : mode);
  for (const mode of MODES) {
    nodes[mode] = await startLineChild('./access-server.ts', [nodeMode(mode)], nodeEnv[mode]);
    if (placement.servers) pin(nodes[mode].proc.pid!, placement.servers);
  }
  const base = (mode: Mode) => `http://127.0.0.1:${nodes[mode].ready.port}`;
  const seeder = await startLineChild('./access-server.ts', ['off'], env);
  await seedReaderThroughApi(`http://127.0.0.1:${seeder.ready.port}`, MODES.map(base));
  await seeder.stop();

  const together = (path: string, seconds: number) =>
    runLoadsTogether(
      MODES.map((mode) => ({ url: `${base(mode)}${path}`, headers: READER_HEADERS, serverPid: nodes[mode].proc.pid! })),
      seconds,
      CONNECTIONS,
    );
  type Results = Record<Mode, LoadResult[]>;
  // Warm-up: six nodes share one CPU, so each gets a sixth of these seconds to compile its hot path.
  const measure = async (path: string, rounds: number, warmUpSeconds: number): Promise<Results> => {
    await together(path, warmUpSeconds);
    const results = Object.fromEntries(MODES.map((m) => [m, [] as LoadResult[]])) as Results;
    for (let r = 0; r < rounds; r++) (await together(path, SECONDS)).forEach((result, i) => results[MODES[i]!].push(result));
    return results;
  };
  const cached = await measure('/api/my-capabilities', ROUNDS, 12);
  const uncached = await measure('/nocache/api/my-capabilities', UNCACHED_ROUNDS, 3);
  const exports = ((await (await fetch(`http://127.0.0.1:${sink.ready.port}/`)).json()) as { exports: number }).exports;

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
  const figures = Object.fromEntries(MODES.map((m) => [m, summary(m)])) as Record<Mode, ReturnType<typeof summary>>;
  const off = figures.off;
  report(
    'access-observability',
    {
      route: 'GET /api/my-capabilities (access cache on)',
      placement: placement.servers ? { serversOnCpus: placement.servers, restOnCpus: placement.rest } : 'not pinned (one CPU, or no taskset)',
      connectionsPerNode: CONNECTIONS,
      rounds: ROUNDS,
      secondsPerRound: SECONDS,
      baseline: { mode: 'off (no metrics, no tracing)', ...off },
      secondOffNode: figures['off-b'],
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
      within('off (second node) / off, answers per CPU-second', figures['off-b'].ratio!, 0.9, 1.1, 'two identical nodes: the bench tells them apart by less than this'),
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
