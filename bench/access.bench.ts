/**
 * bench/access: the guarded read GET /api/my-capabilities against a bare Hono route answering
 * the same kind of JSON, on one API node (bench/support/access-server.ts, as deployed: access
 * cache on, metrics on, tracing off) under the same autocannon load from a separate process.
 * Also the same read with the access cache off (a PostgreSQL round trip a request), for scale.
 *
 * A warm-up of each side, then ROUNDS rounds of SECONDS each in alternating order; a ratio is the
 * median of the rounds' ratios (each round's sides run back to back, so a load spike on the
 * shared machine hits one round's pair, not the verdict). Throughput counts 2xx answers only, in
 * two measures: answers a second (wall clock), and answers per CPU-second of the node (its
 * threads' CPU time over the phase, from /proc). The node is the bottleneck, so the second is its
 * throughput with the machine to itself, and it holds still while other work on a shared machine
 * takes the node's CPU away at random (the first swung 0.13-1.82 between rounds of one run).
 * Goals: guarded >= 0.7 x bare in answers per CPU-second; no answer but 2xx.
 *
 * Profiling the node: BENCH_SERVER_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=/tmp/prof' npm run bench -- access
 *
 * Run: npm run bench -- access
 */
import { atLeast, exactly, report } from './support/goals';
import { startLineChild } from './support/children';
import { runLoad, type LoadResult } from './support/load';
import { alternateRounds } from './support/order';
import { READER_HEADERS, seedReaderThroughApi } from './support/seed';
import { startBenchDatabase } from './support/servers';
import { median, round } from './support/stats';

const ROUNDS = Number(process.env.ACCESS_BENCH_ROUNDS ?? 8);
const SECONDS = 4;
const CONNECTIONS = 32;
const GOAL = 0.7;

const db = await startBenchDatabase();
const nodeOptions: Record<string, string> = process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {};
const node = await startLineChild('./access-server.ts', ['metrics'], { BENCH_DATABASE_URL: db.url, ...nodeOptions });
try {
  const base = `http://127.0.0.1:${node.ready.port}`;
  await seedReaderThroughApi(base);
  const sides = {
    bare: { path: '/bench/bare', headers: {} },
    guarded: { path: '/api/my-capabilities', headers: READER_HEADERS },
    noCache: { path: '/nocache/api/my-capabilities', headers: READER_HEADERS },
  };
  const names = Object.keys(sides) as (keyof typeof sides)[];
  const load = (name: keyof typeof sides, seconds: number) =>
    runLoad({ url: `${base}${sides[name].path}`, seconds, connections: CONNECTIONS, headers: sides[name].headers, serverPid: node.proc.pid });
  for (const name of names) await load(name, 2);
  const results = await alternateRounds(names, ROUNDS, (name) => load(name, SECONDS));

  const rps = (xs: LoadResult[]) => median(xs.map((x) => x.requestsPerSec));
  const perCpu = (xs: LoadResult[]) => median(xs.map((x) => x.requestsPerCpuSec!));
  const ratios = (side: keyof typeof sides, k: 'requestsPerSec' | 'requestsPerCpuSec') => results[side].map((r, i) => r[k]! / results.bare[i]![k]!);
  const failed = names.reduce((n, s) => n + results[s].reduce((a, x) => a + x.non2xx + x.errors, 0), 0);
  const summary = (side: keyof typeof sides) => ({
    rps: Math.round(rps(results[side])),
    perCpuSecond: Math.round(perCpu(results[side])),
    p99Ms: Math.max(...results[side].map((x) => x.p99Ms)),
    ...(side === 'bare'
      ? {}
      : {
          ratio: round(median(ratios(side, 'requestsPerCpuSec')), 3),
          ratioPerRound: ratios(side, 'requestsPerCpuSec').map((r) => round(r, 2)),
          wallRatio: round(median(ratios(side, 'requestsPerSec')), 3),
          wallRatioPerRound: ratios(side, 'requestsPerSec').map((r) => round(r, 2)),
        }),
  });
  const guarded = summary('guarded');
  const bare = summary('bare');
  report(
    'access',
    {
      connections: CONNECTIONS,
      rounds: ROUNDS,
      secondsPerRound: SECONDS,
      guarded: { route: 'GET /api/my-capabilities (access cache on)', ...guarded },
      guardedWithoutCache: { route: 'GET /api/my-capabilities, access cache off', ...summary('noCache') },
      baseline: { route: 'GET /bench/bare (bare Hono route, same node)', ...bare },
    },
    [
      atLeast('guarded / bare, answers per CPU-second', guarded.ratio!, GOAL, `bare ${bare.perCpuSecond}/CPU-s, ${bare.rps} rps`),
      exactly('non-2xx answers', failed, 0, 'all sides'),
    ],
  );
} finally {
  await node.stop();
  await db.stop();
}
