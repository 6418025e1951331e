/**
 * bench/phone-webhook: the provider webhook under concurrent load, against the bare health route
 * of the same server in the same run. Load comes from autocannon in a separate process.
 *
 * - baseline: GET /health/live (no database);
 * - status-update: POST /api/public/phone/webhook, request k a status for tracked call k mod N
 *   (first round `ringing`, second `in-progress`, ...): every request is a real write;
 * - end-of-call-report: a full report (40-line transcript, analysis, raw payload) per tracked call:
 *   each first delivery stores everything and settles the call; later rounds are redeliveries.
 *
 * Real PostgreSQL (bench/support/servers: embedded with default durable settings, or a fresh
 * database on DATABASE_URL). A message that ends a call writes its PhoneCallEnded outbox row in
 * the same transaction, as in production; no dispatcher runs. Prints exactly one JSON line. Bounded: ~45 s.
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
import { runLoad, type LoadResult } from './support/load';
import { runRotatingLoad } from './support/rotating-load';
import { startBenchDatabase } from './support/servers';

const CONNECTIONS = 16;
const SECONDS = 10;
const WARMUP_SECONDS = 2;
const CALLS = 20_000;
const GOAL_P99_MS = 50;
const TENANT = 'bench-phone';
const ID = '__CALL__';

const log = (m: string) => process.stderr.write(`[phone-webhook] ${m}\n`);

async function seed(url: string) {
  const { sql, close } = createDatabase(url, { max: 2 });
  await sql`insert into tenants (id, name, created_by) values (${TENANT}, 'Bench', 'bench')`;
  await sql`insert into capability_subscriptions (tenant_id, capability_code, status, updated_by)
            values (${TENANT}, 'PHONE', 'ACTIVE', 'bench')`;
  for (let from = 0; from < CALLS; from += 2_000) {
    const rows = Array.from({ length: Math.min(2_000, CALLS - from) }, (_, j) => {
      const id = randomUUID();
      return {
        id,
        tenant_id: TENANT,
        direction: 'OUTBOUND',
        status: 'QUEUED',
        provider_call_id: `bench-call-${from + j}`,
        business_key: id,
        initiated_by: 'bench',
      };
    });
    await sql`insert into phone_calls ${sql(rows)}`;
  }
  await sql`analyze phone_calls`;
  await close();
}

const TRANSCRIPT = Array.from({ length: 40 }, (_, i) => `${i % 2 ? 'User' : 'AI'}: sentence number ${i} of the call.`).join('\n');
const body = (m: { message: Record<string, unknown> }) => JSON.stringify(m);
const statusBodies = ['ringing', 'in-progress'].map((status) => body(statusUpdate({ callId: `bench-call-${ID}`, status })));
const reportBodies = [
  body(
    endOfCallReport({
      callId: `bench-call-${ID}`,
      endedReason: 'customer-ended-call',
      transcript: TRANSCRIPT,
      recordingUrl: `https://recordings.example/${ID}.wav`,
      summary: 'The customer confirmed the appointment.',
      cost: 0.07,
      analysis: { successEvaluation: 'true', structuredData: { confirmed: true } },
    }),
  ),
];

const figures = (r: LoadResult & { requests?: number }) => ({
  rps: Math.round(r.requestsPerSec),
  p50Ms: r.p50Ms,
  p99Ms: r.p99Ms,
  ...(r.requests !== undefined ? { requests: r.requests } : {}),
  non2xx: r.non2xx,
  errors: r.errors,
});

const bench = await startBenchDatabase();
try {
  await seed(bench.url);
  const settings = loadSettings({}, { 'log.level': 'silent' });
  const database = createDatabase(bench.url, { max: settings['database.pool-size'] });
  const server = await startServer({ db: database.db, settings, logger: pino({ level: 'silent' }), mailer: mailerFor(settings), readiness: {} }, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${server.port}`;
  const webhook = `${base}/api/public/phone/webhook`;
  try {
    log('warm-up');
    await runLoad({ url: `${base}/health/live`, seconds: WARMUP_SECONDS, connections: CONNECTIONS });
    // Warm-up statuses use `scheduled` (maps to QUEUED): reads only, the measured rounds stay writes.
    const warm = [body(statusUpdate({ callId: `bench-call-${ID}`, status: 'scheduled' }))];
    await runRotatingLoad({ url: webhook, seconds: WARMUP_SECONDS, connections: CONNECTIONS, bodies: warm, placeholder: ID, count: CALLS });

    log('baseline GET /health/live');
    const baseline = figures(await runLoad({ url: `${base}/health/live`, seconds: SECONDS, connections: CONNECTIONS }));
    log('status-update');
    const status = figures(
      await runRotatingLoad({ url: webhook, seconds: SECONDS, connections: CONNECTIONS, bodies: statusBodies, placeholder: ID, count: CALLS }),
    );
    log('end-of-call-report');
    const report = figures(
      await runRotatingLoad({ url: webhook, seconds: SECONDS, connections: CONNECTIONS, bodies: reportBodies, placeholder: ID, count: CALLS }),
    );
    const [settled] = await database.sql`select count(*)::int as n from phone_calls where status in ('ENDED', 'FAILED')`;
    const met = (f: ReturnType<typeof figures>) => f.p99Ms < GOAL_P99_MS && f.non2xx === 0 && f.errors === 0;
    process.stdout.write(
      `${JSON.stringify({
        benchmark: 'phone-webhook',
        database: settings['database.url'] ? 'DATABASE_URL' : 'embedded PostgreSQL (durable defaults)',
        connections: CONNECTIONS,
        secondsPerPhase: SECONDS,
        trackedCalls: CALLS,
        baseline: { route: 'GET /health/live', ...baseline },
        statusUpdate: status,
        endOfCallReport: { ...report, callsSettled: settled!.n },
        ratio: {
          statusUpdateToBaseline: Math.round((status.rps / baseline.rps) * 1000) / 1000,
          endOfCallReportToBaseline: Math.round((report.rps / baseline.rps) * 1000) / 1000,
        },
        goals: { p99Ms: GOAL_P99_MS, statusUpdateMet: met(status), endOfCallReportMet: met(report) },
      })}\n`,
    );
  } finally {
    await server.close();
    await database.close();
  }
} finally {
  await bench.stop();
}
