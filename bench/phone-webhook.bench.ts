/**
 * bench/phone-webhook: the provider webhook under concurrent load, in one server and run. Load
 * comes from autocannon in a separate process.
 *
 * - baseline: GET /health/live (no database);
 * - status-update: POST /api/public/phone/webhook, a `ringing` status for each tracked call of its
 *   slice in turn: every request is a real write (one UPDATE);
 * - end-of-call-report: a full report (40-line transcript, analysis, raw payload) for each tracked
 *   call of its slice in turn: every request stores the report, settles the call and writes its
 *   PhoneCallEnded outbox row (one statement).
 *
 * The two webhook sides run ROUNDS times in alternating order (AB, BA), each phase on a fresh
 * slice of calls, after a warm-up of each. Goal: end-of-call-report throughput at least 0.9 of
 * status-update's (successful answers a second, summed over the rounds); p50/p99 of each side
 * reported (p50 the median of the rounds', p99 the worst round's); and exactly one PhoneCallEnded
 * row per call the reports ended, none lost, none twice; no answer but 2xx. No absolute time
 * goal. Exits 1 when a goal is missed.
 *
 * Real PostgreSQL (bench/support/servers: embedded with default durable settings, or a fresh
 * database on DATABASE_URL); no dispatcher runs. Prints exactly one JSON line. Bounded: about a minute.
 *
 * Run: npx tsx bench/phone-webhook.bench.ts
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { startServer } from '../api/server';
import { createDatabase } from '../db/client';
import { mailerFor } from '../integrations/mail/mailer';
import { endOfCallReport, statusUpdate } from '../test/stand-ins/vapi/messages';
import { loadSettings } from '../workers/config';
import { atLeast, exactly, report as reportLine } from './support/goals';
import { runLoad, type LoadResult } from './support/load';
import { roundOrder } from './support/order';
import { runRotatingLoad } from './support/rotating-load';
import { seedTenant } from './support/seed';
import { startBenchDatabase } from './support/servers';
import { median, round } from './support/stats';

const CONNECTIONS = 16;
const SECONDS = 8;
const WARMUP_SECONDS = 2;
const ROUNDS = 2;
/** Calls per slice: more than a phase can reach, so no request is a redelivery. */
const CALLS = 20_000;
const GOAL_RATIO = 0.9;
const TENANT = 'bench-phone';
const ID = '__CALL__';
const SIDES = ['statusUpdate', 'endOfCallReport'] as const;
type Side = (typeof SIDES)[number];
/** The slices of tracked calls: a warm-up slice per side, then one per side and round. */
const SLICES = ['warm-statusUpdate', 'warm-endOfCallReport', ...Array.from({ length: ROUNDS }, (_, r) => SIDES.map((side) => `${r}-${side}`)).flat()];

const log = (m: string) => process.stderr.write(`[phone-webhook] ${m}\n`);

async function seed(url: string) {
  await seedTenant(url, { tenant: TENANT, capabilities: ['PHONE'] });
  const { sql, close } = createDatabase(url, { max: 2 });
  for (const slice of SLICES) {
    for (let from = 0; from < CALLS; from += 2_000) {
      const rows = Array.from({ length: Math.min(2_000, CALLS - from) }, (_, j) => {
        const id = randomUUID();
        return {
          id,
          tenant_id: TENANT,
          direction: 'OUTBOUND',
          status: 'QUEUED',
          provider_call_id: `bench-call-${slice}-${from + j}`,
          business_key: id,
          initiated_by: 'bench',
        };
      });
      await sql`insert into phone_calls ${sql(rows)}`;
    }
  }
  await sql`analyze phone_calls`;
  await close();
}

const TRANSCRIPT = Array.from({ length: 40 }, (_, i) => `${i % 2 ? 'User' : 'AI'}: sentence number ${i} of the call.`).join('\n');
const body = (m: { message: Record<string, unknown> }) => JSON.stringify(m);
const bodiesFor = (side: Side, slice: string) => {
  const callId = `bench-call-${slice}-${ID}`;
  if (side === 'statusUpdate') return [body(statusUpdate({ callId, status: 'ringing' }))];
  return [
    body(
      endOfCallReport({
        callId,
        endedReason: 'customer-ended-call',
        transcript: TRANSCRIPT,
        recordingUrl: `https://recordings.example/${ID}.wav`,
        summary: 'The customer confirmed the appointment.',
        cost: 0.07,
        analysis: { successEvaluation: 'true', structuredData: { confirmed: true } },
      }),
    ),
  ];
};

const figures = (r: LoadResult & { requests?: number }) => ({
  rps: Math.round(r.requestsPerSec),
  p50Ms: r.p50Ms,
  p99Ms: r.p99Ms,
  ...(r.requests !== undefined ? { requests: r.requests } : {}),
  non2xx: r.non2xx,
  errors: r.errors,
});

const round3 = (x: number) => round(x, 3);

/** A side over its rounds: rps summed over equal phases (as a mean), p50 the median round's, p99 the worst. */
function combine(rounds: ReturnType<typeof figures>[]) {
  return {
    rps: Math.round(rounds.reduce((n, r) => n + r.rps, 0) / rounds.length),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: Math.max(...rounds.map((r) => r.p99Ms)),
    requests: rounds.reduce((n, r) => n + (r.requests ?? 0), 0),
    /** Requests past a slice's calls (a redelivery writes nothing): 0 unless a phase outran its slice. */
    redeliveries: rounds.reduce((n, r) => n + Math.max(0, (r.requests ?? 0) - CALLS), 0),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    rounds: rounds.map(({ rps, p50Ms, p99Ms }) => ({ rps, p50Ms, p99Ms })),
  };
}

const bench = await startBenchDatabase();
try {
  await seed(bench.url);
  const settings = loadSettings({}, { 'log.level': 'silent' });
  const database = createDatabase(bench.url, { max: settings['database.pool-size'] });
  const server = await startServer({ db: database.db, settings, logger: pino({ level: 'silent' }), mailer: mailerFor(settings), readiness: {} }, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${server.port}`;
  const webhook = `${base}/api/public/phone/webhook`;
  const phase = (side: Side, slice: string, seconds: number) =>
    runRotatingLoad({ url: webhook, seconds, connections: CONNECTIONS, bodies: bodiesFor(side, slice), placeholder: ID, count: CALLS });
  try {
    log('warm-up');
    await runLoad({ url: `${base}/health/live`, seconds: WARMUP_SECONDS, connections: CONNECTIONS });
    for (const side of SIDES) await phase(side, `warm-${side}`, WARMUP_SECONDS);

    log('baseline GET /health/live');
    const baseline = figures(await runLoad({ url: `${base}/health/live`, seconds: SECONDS, connections: CONNECTIONS }));
    const measured: Record<Side, ReturnType<typeof figures>[]> = { statusUpdate: [], endOfCallReport: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const side of roundOrder(SIDES, r)) {
        log(`round ${r + 1}: ${side}`);
        measured[side].push(figures(await phase(side, `${r}-${side}`, SECONDS)));
      }
    }
    const status = combine(measured.statusUpdate);
    const report = combine(measured.endOfCallReport);

    // Every call a report ended (the only writer of ENDED here) has exactly one PhoneCallEnded row.
    const [signals] = await database.sql`
      select (select count(*)::int from phone_calls where status = 'ENDED') as ended,
             count(*)::int as rows, count(distinct business_key)::int as calls
      from outbox where verb = 'signal' and signal_name = 'PhoneCallEnded'`;
    const ratio = round3(report.rps / status.rps);
    const failed = [status, report].reduce((n, f) => n + f.non2xx + f.errors, 0);
    reportLine(
      'phone-webhook',
      {
        database: settings['database.url'] ? 'DATABASE_URL' : 'embedded PostgreSQL (durable defaults)',
        connections: CONNECTIONS,
        secondsPerPhase: SECONDS,
        rounds: ROUNDS,
        callsPerPhase: CALLS,
        baseline: { route: 'GET /health/live', ...baseline },
        statusUpdate: status,
        endOfCallReport: report,
        phoneCallEnded: { callsEnded: signals!.ended, rows: signals!.rows, distinctCalls: signals!.calls },
        ratio: {
          endOfCallVsStatusUpdate: ratio,
          statusUpdateToBaseline: round3(status.rps / baseline.rps),
          endOfCallReportToBaseline: round3(report.rps / baseline.rps),
        },
      },
      [
        atLeast('end-of-call / status-update rps', ratio, GOAL_RATIO, `status-update ${status.rps} rps`),
        exactly('PhoneCallEnded rows lost or doubled', Math.abs(signals!.ended - signals!.calls) + (signals!.rows - signals!.calls), 0, `${signals!.ended} calls ended`),
        exactly('non-2xx answers', failed, 0, 'both webhook sides'),
      ],
    );
  } finally {
    await server.close();
    await database.close();
  }
} finally {
  await bench.stop();
}
